// `npm run restore -- <backup directory> [--force]`: checks the backup (every checksum, the
// database's integrity and rows against the manifest) and puts it in place; a damaged backup is
// refused before anything changes. The server must be stopped (docs/backup.md).
import { loadConfig } from '../src/server/config.ts';
import { engineOf, sqliteFile } from '../src/server/db/connect.ts';
import { restoreBackup, verifyBackup } from '../src/server/ops/backup.ts';
import { causeOf } from '../src/server/startError.ts';
import { loadEnvFile, opsFailed } from './opsSupport.ts';

const args = process.argv.slice(2);
const force = args.includes('--force');
const checkOnly = args.includes('--check');
const from = args.find((a) => !a.startsWith('--'));
if (!from) opsFailed('usage: npm run restore -- <backup directory> [--check] [--force]');
try {
  loadEnvFile();
  if (checkOnly) {
    const manifest = await verifyBackup(from);
    console.log(`The backup in ${from} is whole: ${manifest.files.length} files match their checksums (taken ${manifest.createdAt})`);
  } else {
    const config = loadConfig();
    if (engineOf(config.databaseUrl) !== 'sqlite') opsFailed('DATABASE_URL names a PostgreSQL or MySQL/MariaDB database: restore it with its own tools as docs/backup.md says');
    const databaseFile = sqliteFile(config.databaseUrl, config.dataDir);
    const manifest = await restoreBackup(from, { databaseFile, dataDir: config.dataDir }, force);
    console.log(`Restored the backup taken ${manifest.createdAt} to ${databaseFile} (${manifest.files.length} files); the server migrates it on start`);
  }
} catch (err) {
  opsFailed(`restore refused: ${causeOf(err)}`);
}
