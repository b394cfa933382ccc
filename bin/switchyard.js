#!/usr/bin/env node
// Entry point of the `switchyard` command: runs the compiled CLI, bundled into a few files so a
// start reads little (npm run build makes dist/; scripts/bundle-gateway.js says why).
import { holdYoungGeneration } from '../dist/bundle/gateway/young-generation.js';

holdYoungGeneration();
const { main } = await import('../dist/bundle/gateway/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    // A failed command has said why; whatever it left open (a socket, a timer) must not keep the
    // process alive looking like a gateway that started.
    if (code !== 0) process.exit(code);
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
