/**
 * A chart's export as it crosses from a page to the host: its data as CSV text, or the chart as a
 * PNG image in base64. The host checks every field (chartFileParams) before it asks where to save.
 */
import { params, ProtocolError } from './wire';

export interface ChartFile {
  fileName: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

/** A chart's CSV of every point (16 series × 100,000 steps) stays well under this; so does a PNG. */
export const maxChartFileChars = 64 * 1024 * 1024;

/** The fields of a `ChartFile` request, checked: a bare file name ending in .csv (text) or .png (base64). */
export function chartFileParams(raw: unknown): ChartFile {
  const fileName = params.string(raw, 'fileName', 120, 'the file name');
  const content = params.string(raw, 'content', maxChartFileChars, 'the chart file');
  const encoding = params.string(raw, 'encoding', 10);
  if (!/^[\w.-]+\.(csv|png)$/i.test(fileName) || fileName.startsWith('.')) throw new ProtocolError('fileName must be a plain name ending in .csv or .png');
  const png = /\.png$/i.test(fileName);
  if ((png && encoding !== 'base64') || (!png && encoding !== 'utf8')) throw new ProtocolError('a .png is sent in base64, a .csv as text');
  if (png && !/^[A-Za-z0-9+/]*={0,2}$/.test(content)) throw new ProtocolError('the image is not base64');
  return { fileName, content, encoding: png ? 'base64' : 'utf8' };
}
