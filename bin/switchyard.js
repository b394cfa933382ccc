#!/usr/bin/env node
// Entry point of the `switchyard` command: runs the compiled CLI (npm run build makes dist/).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
