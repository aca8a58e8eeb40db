// The host's internals, for the shell, the CLI and the tests (never for plugins): the plugin
// host, history, Tab completion, secrets masking, the shell's settings and the documentation
// assembly. It re-exports the plugin API, so one import serves the shell.
export * from '../index.ts';
export * from './tabCompletion.ts';
export * from './history.ts';
export * from './host.ts';
export * from './secrets.ts';
export * from './shellSettings.ts';
export * from './evaluation.ts';
export * from './docs.ts';
