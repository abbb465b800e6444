/** The part of autocannon's programmatic API the load benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Result {
    duration: number;
    errors: number;
    non2xx: number;
    requests: { total: number; average: number };
  }
  function autocannon(opts: { url: string; connections?: number; duration?: number; headers?: Record<string, string> }): Promise<Result>;
  export default autocannon;
}
