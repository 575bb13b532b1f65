/**
 * The file storage FILE_STORAGE names (server/app/settings/config.ts, `fileStorageKind`): `disk` under
 * APP_DATA_DIR/files, `database` in the review store, `s3` in a bucket. file-storage.ts says what each
 * promises; docs/review-store.md, "Where files are kept", when to choose which.
 */
import path from 'node:path';
import type { Env } from '../../settings/config';
import type { ReviewDatabase } from '../db/open-database';
import { DatabaseFileStorage } from './database-file-storage';
import { DiskFileStorage, type FileStorageKind, type KeptFileStorage } from './file-storage';
import { S3FileStorage, type S3Settings } from './s3-file-storage';

export interface FileStorageChoice {
  kind: FileStorageKind;
  /** FILE_STORAGE=s3 only. */
  s3?: S3Settings | undefined;
}

export interface FileStorageSettings extends FileStorageChoice {
  /** APP_DATA_DIR: `disk` keeps the files in its `files/`. */
  dataDir: string;
  /** The review store: `database` keeps the files in it. */
  database: ReviewDatabase;
}

export function openFileStorage(settings: FileStorageSettings): KeptFileStorage {
  switch (settings.kind) {
    case 'disk':
      return new DiskFileStorage(filesDirOf(settings.dataDir));
    case 'database':
      return new DatabaseFileStorage(settings.database);
    case 's3':
      if (settings.s3 === undefined) throw new Error('FILE_STORAGE is s3 but S3_BUCKET is not set');
      return new S3FileStorage(settings.s3);
  }
}

/** APP_DATA_DIR/files: where `disk` keeps the files. */
export const filesDirOf = (dataDir: string): string => path.join(dataDir, 'files');

/** The S3 settings of the environment, when it names a bucket. */
export function s3SettingsFromEnv(
  env: Pick<Env, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE'>,
): S3Settings | undefined {
  return env.S3_BUCKET === undefined
    ? undefined
    : {
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
      };
}
