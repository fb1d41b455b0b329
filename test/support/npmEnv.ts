/**
 * The environment for an npm command a test runs in another project: without what `npm test` itself sets for its
 * script (its package, lifecycle and local prefix), which would otherwise make the nested npm think it runs inside
 * this project.
 */
export function nestedNpmEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
    return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_(package_|lifecycle_|config_local_prefix$|command$)/i.test(k) && k !== "INIT_CWD"));
}
