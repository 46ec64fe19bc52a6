// Imports a peer package from this folder's node_modules (installed by the bench, outside the
// workspace): a dynamic import resolves bare specifiers relative to this file.
/** @param {string} specifier */
export function loadPeer(specifier) {
  return import(specifier);
}
