// Builds the hello plugin as a Module Federation remote: dist/remoteEntry.js exposes
// `./plugin` (src/plugin.ts). `base: './'` keeps every chunk URL relative to remoteEntry.js,
// so the same build works from whatever origin the operator serves it.
//   npx vite build --config examples/hello-plugin/vite.config.ts
import { federation } from '@module-federation/vite';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

export default defineConfig({
  root,
  base: process.env.HELLO_PLUGIN_BASE ?? './',
  plugins: [
    federation({
      name: 'hello_plugin',
      filename: 'remoteEntry.js',
      exposes: { './plugin': './src/plugin.ts' },
      dts: false,
      manifest: true,
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'esnext',
    // No index.html: a remote has no page of its own, so the exposed module is the input.
    rolldownOptions: { input: { plugin: './src/plugin.ts' } },
  },
});
