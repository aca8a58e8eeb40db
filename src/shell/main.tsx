import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { firstPaintEnglish, loadLocale, loadPlugins, settings } from 'virtual:shellchat/plugins';
import { afterPaint, boot } from './boot.ts';
import { ShellContext } from './context.tsx';
import { App } from './components/App.tsx';
import { LoadBoundary, LoadFailed } from './components/LoadBoundary.tsx';
import './styles.css';

const booted = await boot(settings, loadPlugins, loadLocale, firstPaintEnglish);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ShellContext.Provider value={booted}>
      {/* Whatever no inner boundary caught: a line saying so, not a blank page. */}
      <LoadBoundary fallback={() => <LoadFailed />}>
        <App />
      </LoadBoundary>
    </ShellContext.Provider>
  </StrictMode>,
);
requestAnimationFrame(() => void afterPaint(booted));
