/** Starts the Animal Store Service on Node's http module; see README.md. */
import { createServer } from 'node:http';
import { createHandler } from './lib/app.mjs';
import { readConfig } from './lib/config.mjs';

let config;
try {
  config = readConfig();
} catch (e) {
  console.error(`animal-store: ${e.message}`);
  process.exit(2);
}

const handler = createHandler(config);
const server = createServer((req, res) => {
  handler(req, res).catch((e) => {
    console.error(e);
    res.destroy();
  });
});

server.listen(config.port, config.host, () => console.log(`listening on http://${config.host}:${config.port}/v1`));

function stop() {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
