// The function plugin's variables (issue 35: a plugin declares its own; the server merges them
// into its schema and docs/configuration.md): where the built-in functions fetch their data,
// operator-trusted and fetched with plain `fetch`.
import { definePluginEnv, doc, httpUrl, text } from '../../../src/core/envVars.ts';

export default definePluginEnv(
  {
    GEOCODING_BASE_URL: doc(httpUrl('https://geocoding-api.open-meteo.com'), '`https://geocoding-api.open-meteo.com`', 'Open-Meteo-compatible geocoding API of the `get_weather` function (`/v1/search`); operator-trusted, fetched with plain `fetch` (10 s timeout)'),
    WEATHER_BASE_URL: doc(httpUrl('https://api.open-meteo.com'), '`https://api.open-meteo.com`', 'Open-Meteo-compatible forecast API of `get_weather` (`/v1/forecast`); operator-trusted, plain `fetch`'),
    WOLFRAM_BASE_URL: doc(httpUrl('https://api.wolframalpha.com'), '`https://api.wolframalpha.com`', 'Wolfram\\|Alpha API of `ask_wolframalpha` (`/v2/query`); operator-trusted, plain `fetch`'),
    WOLFRAM_APP_ID: doc(text(), '', 'Wolfram\\|Alpha AppID; without it `ask_wolframalpha` answers a clear error'),
  },
  (e) => ({
    /** Open-Meteo-compatible geocoding API (GEOCODING_BASE_URL). */
    geocodingBaseUrl: e.GEOCODING_BASE_URL,
    /** Open-Meteo-compatible forecast API (WEATHER_BASE_URL). */
    weatherBaseUrl: e.WEATHER_BASE_URL,
    /** Wolfram|Alpha API (WOLFRAM_BASE_URL) and its AppID (WOLFRAM_APP_ID; '' disables it). */
    wolframBaseUrl: e.WOLFRAM_BASE_URL,
    wolframAppId: e.WOLFRAM_APP_ID,
  }),
);
