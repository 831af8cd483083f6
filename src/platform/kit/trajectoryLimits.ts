/** How much RL Studio sends of trajectory groups in one request, and the words for sizes its messages use. */

/**
 * The platform publishes no request-size limit. 16 MB of trajectory groups is thousands of
 * trajectories, more than one request should carry; a bigger file is better split, and checking
 * stays short enough to follow every edit.
 */
export const maxTrajectoryFileSize = 16 * 1024 * 1024;

/** "16 MB": sizes as the messages give them. */
export function describeSize(size: number): string {
  const megabytes = size / (1024 * 1024);
  return `${megabytes >= 10 || Number.isInteger(megabytes) ? Math.round(megabytes) : megabytes.toFixed(1)} MB`;
}
