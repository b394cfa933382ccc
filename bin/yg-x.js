import v8 from 'node:v8';
v8.setFlagsFromString('--semi-space-growth-factor=1');
setTimeout(() => v8.setFlagsFromString('--semi-space-growth-factor=2'), 1000).unref();
const { main } = await import('../dist/bundle/gateway/main.js');
main(process.argv.slice(2)).then((code) => { if (code !== 0) process.exit(code); });
