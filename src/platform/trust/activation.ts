import type { Services } from '../host/services';
import { WorkspaceEndpoints } from './workspaceEndpoints';

/** Asks about endpoint values the workspace sets, from activation on (nothing is sent before). */
export function registerWorkspaceEndpoints(services: Services): void {
  services.context.subscriptions.push(new WorkspaceEndpoints(services));
}
