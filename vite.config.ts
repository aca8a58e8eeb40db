import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { appPlugins } from './scripts/appPluginsVite.ts';

const root = import.meta.dirname;

export default defineConfig({
  root,
  plugins: [react(), appPlugins(root)],
  build: {
    outDir: process.env.SHELLCHAT_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2023',
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
