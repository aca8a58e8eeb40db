// `npm run backup [-- <directory>]`: a consistent copy of the embedded SQLite database and
// DATA_DIR's files, with a manifest of checksums, taken while the server runs (docs/backup.md).
// PostgreSQL and MariaDB deployments use their own tools; this says which.
import { loadConfig } from '../src/server/config.ts';
import { engineOf, sqliteFile } from '../src/server/db/connect.ts';
import { defaultBackupDir, takeBackup } from '../src/server/ops/backup.ts';
import { causeOf } from '../src/server/startError.ts';
import { loadEnvFile, opsFailed } from './opsSupport.ts';

try {
  loadEnvFile();
  const config = loadConfig();
  const engine = engineOf(config.databaseUrl);
  if (engine !== 'sqlite') opsFailed(`DATABASE_URL names a ${engine === 'postgres' ? 'PostgreSQL' : 'MySQL/MariaDB'} database: back it up with ${engine === 'postgres' ? 'pg_dump' : 'mariadb-dump'} as docs/backup.md says`);
  const out = process.argv[2] ?? defaultBackupDir();
  const manifest = await takeBackup({ databaseFile: sqliteFile(config.databaseUrl, config.dataDir), dataDir: config.dataDir }, out);
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  const bytes = manifest.files.reduce((a, f) => a + f.bytes, 0);
  console.log(`Backed up ${rows} rows in ${Object.keys(manifest.tables).length} tables and ${manifest.files.length} files (${bytes} bytes) to ${out}`);
} catch (err) {
  opsFailed(`backup failed: ${causeOf(err)}`);
}
