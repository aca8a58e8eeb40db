import { buildApp, initialGraph } from '../initialLoad.ts';
const out = process.argv[2]!;
await buildApp(out);
console.log(initialGraph(out));
