import { writeFileSync } from 'node:fs';
import { certificates, internalUrl, serveTls, startProxy } from './support/network.ts';
const server = await serveTls({ app: { windowMs: 5000 } });
const proxy = await startProxy({ auth: 'suite:pr0xy-pass' });
writeFileSync('/tmp/net-done/proxy-env.sh', `export HTTPS_PROXY=${proxy.url}\nexport BASE=${internalUrl(server)}\nexport CA=${certificates('test').ca}\nexport KEY=${server.app.keys.pro}\n`);
process.on('SIGTERM', () => {
  const relayed = proxy.relayed();
  writeFileSync('/tmp/net-done/proxy-report.txt', `connects=${proxy.connects.length} distinct=${[...new Set(proxy.connects)].join(',')} forwarded=${proxy.forwarded.length} relayedBytes=${relayed.length} keyInClear=${relayed.includes(server.app.keys.pro)} passInClear=${relayed.includes('pr0xy-pass')} byVersion=${JSON.stringify(server.byVersion)}\n`);
  process.exit(0);
});
console.log('ready');
