/** The pure payload and webhook modules the editor layer adapts. */
export * from '../../payload';
export { findWebhook } from '../../webhook/model';
