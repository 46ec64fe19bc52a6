// Module resolve hook for running dsh from the workspace: adds the `@dsh/source` export condition,
// so `dsh-host` and its siblings resolve to their TypeScript sources (see AGENTS.md, "How packages
// are linked"). Not used by the published package.
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes('@dsh/source') ? context.conditions : [...context.conditions, '@dsh/source'];
  return nextResolve(specifier, { ...context, conditions });
}
