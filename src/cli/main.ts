/** Entry point of `npm start` and the `animal-store-certify` bin. */
import { certify } from './certify.ts';
import { ignoreClosedPipes } from '../config/exit.ts';

ignoreClosedPipes();
certify(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`animal-store: internal error: ${(e as Error).message}\n`);
    process.exitCode = 2;
  },
);
