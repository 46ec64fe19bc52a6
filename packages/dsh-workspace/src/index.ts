/**
 * dsh-workspace: the files of a session at any event. Today: the one way dsh runs git (SPEC §27),
 * and the checkout a user pointed dsh at.
 *
 * @module
 */
export { runGit, gitText, gitFailed, safeGitArgs, safeGitEnv, SAFE_GIT_CONFIG } from './run-git.js';
export type { GitTarget, RunGitOptions, GitResult } from './run-git.js';
export { findCheckout } from './find-checkout.js';
export type { Checkout } from './find-checkout.js';
export { WorkspaceError, WORKSPACE_ERROR_CODES } from './workspace-error.js';
export type { WorkspaceErrorCode } from './workspace-error.js';
