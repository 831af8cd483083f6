import type { ByteSource } from './fileSource';
import type { ParquetSource } from '../../platform/parquet/parquetFile';
import type { TrajectoryFileFormat } from '../../platform/kit/trajectoryFile';
import type { GroupFile } from './groupFile';
import { ParquetGroupFile, parquetSourceOf } from './parquetGroupFile';
import { TextGroupFile } from './textGroupFile';

/** A trajectory file of either kind as groups: a Parquet log through its reader, JSON and JSONL as text. */
export function openGroupFile(source: ByteSource, format: TrajectoryFileFormat, openParquet?: () => Promise<ParquetSource>): GroupFile {
  return format === 'parquet' ? new ParquetGroupFile(openParquet ?? parquetSourceOf(source)) : new TextGroupFile(source, format);
}
