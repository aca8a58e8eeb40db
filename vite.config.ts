import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { appPlugins } from './scripts/appPluginsVite.ts';

const root = import.meta.dirname;

export default defineConfig({
  root,
  plugins: [
    react(),
    appPlugins(root),
    // Offline at load (spec parts 1 and 4): a service worker keeps the page and its code, so the
    // app opens with no network or with the server down and chats with the local model server.
    // The API is never cached: its answers are the server's, or the offline mode's.
    VitePWA({
      // Registered by hand after the first paint (src/shell/serviceWorker.ts): nothing in the first paint's code.
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['icons/icon.svg'],
      manifest: {
        name: 'shellchat',
        short_name: 'shellchat',
        description: 'A keyboard-first chat assistant for large language models.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#1e1e2e',
        theme_color: '#1e1e2e',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // The page and every chunk of code and strings (hashed, so a new build replaces them);
        // fonts load on first use and stay cached from then on.
        globPatterns: ['index.html', 'assets/*.{js,css}', 'icons/*', 'manifest.webmanifest'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        navigateFallback: '/index.html',
        // The app is one page, `/` (spec part 2): any other path is asked of the server, so its
        // 404 stays a 404 (the worker answered every path with the page).
        navigateFallbackAllowlist: [/^\/(index\.html)?(\?.*)?$/],
        navigateFallbackDenylist: [/^\/api\//],
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [
          { urlPattern: ({ url }) => url.pathname.startsWith('/api/'), handler: 'NetworkOnly' },
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/assets/') && /\.(woff2?|ttf)$/.test(url.pathname),
            handler: 'CacheFirst',
            options: { cacheName: 'fonts', expiration: { maxEntries: 80 } },
          },
        ],
      },
    }),
  ],
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
