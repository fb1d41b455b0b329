/**
 * Child process: the cold cost of evaluating the whole program for one infrastructure type, or the
 * floor it is compared with. Each measurement is a fresh process; times are from process start.
 *
 *   node -r ts-node/register/transpile-only bench/cost/evaluate.ts <infra>
 *
 * loads index.ts as Pulumi's runtime does (ts-node, transpile-only) and runs it under mocks until
 * every registration is answered. The floor (only @pulumi/pulumi and the provider SDKs the path
 * uses, in plain node) is bench/lib/child.ts's `floorScript`.
 */
import { performance } from "perf_hooks";
import { directImporters, loadedPulumiPackages, requireChains, sdksOf } from "../lib/modules";
import { emitResult, measure, runUnderMocks } from "../lib/runProgram";
import { benchStack, clearProgramEnv, isBenchInfra } from "../lib/stacks";

/** Cloud SDKs whose presence on the existing-cluster path is checked. */
const CLOUD_SDKS = ["@pulumi/aws", "@pulumi/eks", "@pulumi/digitalocean", "@pulumi/linode", "@pulumi/docker"];

async function main() {
    const [arg] = process.argv.slice(2);
    if (!isBenchInfra(arg)) throw new Error(`usage: evaluate.ts <aws|digitalocean|linode|kubeconfig>; got ${arg}`);
    clearProgramEnv();
    const raw = benchStack(arg);
    const entry = require.resolve("../../index");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const program: () => Record<string, unknown> = require(entry);
    const loadedMs = performance.now();
    const run = await runUnderMocks(program, raw, { msPerMinute: 0, recordInputs: "none" });
    const loaded = loadedPulumiPackages();
    emitResult({
        infra: arg,
        registrations: run.registrations.length,
        // What the registrations actually need: the SDK of every package they came from.
        usedPackages: sdksOf(run.registrations.map((r) => r.type)),
        loadedPackages: loaded,
        cloudSdkChains: requireChains(entry, CLOUD_SDKS.filter((p) => loaded.includes(p))),
        cloudSdkImporters: directImporters(CLOUD_SDKS.filter((p) => loaded.includes(p))),
        loadMs: loadedMs,
        ...measure(),
    });
}

main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
});
