import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadLocale, loadPlugins, settings } from 'virtual:shellchat/plugins';
import { afterPaint, boot } from './boot.ts';
import { ShellContext } from './context.tsx';
import { App } from './components/App.tsx';
import './styles.css';

const booted = await boot(settings, loadPlugins, loadLocale);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ShellContext.Provider value={booted}>
      <App />
    </ShellContext.Provider>
  </StrictMode>,
);
requestAnimationFrame(() => void afterPaint(booted));
