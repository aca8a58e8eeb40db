// A third-party plugin, shipped as a Module Federation remote that exposes `./plugin`.
// The default export is a PluginEntry: a manifest of plain data, the code behind it, and the
// strings of its own i18n namespace (a remote cannot add files to the host's locales/ folder).
// Only PLUGIN_API is a value import; everything else from the contract is a type and is erased,
// so the remote carries none of the host's code.
import { PLUGIN_API, type PluginEntry, type PluginManifest, type PluginModule } from '../../../src/core/contract.ts';

const manifest: PluginManifest = {
  api: PLUGIN_API,
  id: 'hello',
  version: '1.0.0',
  commands: [{ id: 'hello', words: ['hello'], group: 'general', args: [{ name: 'name', optional: true }] }],
};

const module: PluginModule = {
  activate(ctx) {
    ctx.handle('hello', ({ args, t }) => {
      const name = args.name?.trim();
      return { kind: 'text', text: name ? t('msg.helloName', { name }) : t('msg.hello') };
    });
  },
};

const locales: Record<string, Record<string, unknown>> = {
  'en-US': {
    cmd: { hello: { summary: 'Say hello, to the world or to a name.' } },
    msg: { hello: 'Hello, world!', helloName: 'Hello, {{name}}!' },
  },
  'zh-CN': {
    cmd: { hello: { summary: '打个招呼：向世界，或向某个名字。' } },
    msg: { hello: '你好，世界！', helloName: '你好，{{name}}！' },
  },
  'ar-SA': {
    cmd: { hello: { summary: 'ألقِ التحية على العالم أو على اسم.' } },
    msg: { hello: 'مرحبًا أيها العالم!', helloName: 'مرحبًا يا {{name}}!' },
  },
};

const entry: PluginEntry = {
  manifest,
  load: async () => module,
  locales,
};

export default entry;
