/**
 * Lets Node's own `require` load this repository's TypeScript inside the test runner. The program loads
 * its cloud SDKs lazily with a plain `require` (providers/factory.ts, the Platform's IngressControllerImage), which
 * works under Pulumi (Pulumi.yaml's loader, Sucrase) and as compiled JavaScript; vitest transforms imports
 * but leaves such requires to Node, which knows no `.ts`. Registered with the hook Pulumi.yaml names.
 */
if (!require.extensions[".ts"]) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require("sucrase/register/ts");
}
