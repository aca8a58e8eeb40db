// The baseline of the initial-load benchmark: the smallest Vite + React 19 page.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <p>hello</p>
  </StrictMode>,
);
