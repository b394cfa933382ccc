#!/usr/bin/env node
// Entry point of the `switchyard` command: runs the compiled CLI (npm run build makes dist/).
import { main } from '../dist/cli/main.js';

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
