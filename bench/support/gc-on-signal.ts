// Preloaded into a bench's shop process (node --expose-gc --import tsx --import this): SIGUSR2 runs
// a full GC, so the bench reads the server's memory without the garbage of what came before.
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
});
