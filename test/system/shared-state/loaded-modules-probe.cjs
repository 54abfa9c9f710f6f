// Preloaded into a gateway process (NODE_OPTIONS=--require): on SIGUSR2 it prints whether any of
// ioredis's files were loaded. ioredis is CommonJS, so every file of it that ran is in require.cache.
process.on('SIGUSR2', () => {
  const loaded = Object.keys(require.cache).some((file) => file.includes('/node_modules/ioredis/'));
  process.stdout.write(`ioredis loaded: ${loaded ? 'yes' : 'no'}\n`);
});
