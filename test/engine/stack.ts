/**
 * A stack of the real program for the tier: a stack file in the project directory (ignored by git, as every
 * `Pulumi.<stack>.yaml` but the example), created in the sandbox's local backend with the passphrase secrets
 * provider, and removed again by `dispose`.
 */
import * as fs from "fs";
import * as path from "path";
import { stringify } from "yaml";
import { ROOT, TestCluster, CONTEXT } from "./cluster";
import { pulumi, PulumiSandbox, tail } from "./pulumiEnv";

/** A tier stack: its name, its file, and the sandbox it lives in. */
export interface TierStack {
    readonly name: string;
    readonly file: string;
    readonly sandbox: PulumiSandbox;
    /** Runs `pulumi <args> --stack <name> --non-interactive` in the project directory. */
    pulumi(args: readonly string[], timeoutMs?: number): ReturnType<typeof pulumi>;
    /** Sets one config value (`--secret` when `secret`), through the real CLI. */
    set(key: string, value: string, secret?: boolean): Promise<void>;
    /** Deletes the stack file (the state folder goes with the sandbox). */
    dispose(): void;
}

/** The configuration every tier stack starts from: the test cluster and the vendored charts. */
export function baseConfig(cluster: TestCluster): Record<string, string> {
    return {
        "mara:infraType": "kubeconfig",
        "mara:kubeconfig": cluster.kubeconfig,
        "mara:kubeContext": CONTEXT,
        "mara:clusterName": "engine",
        "mara:fqdn": "mara.engine.test",
        "mara:chartArchiveDir": "./test/charts",
    };
}

/** Writes the stack file and creates the stack in the sandbox's backend. */
export async function createStack(sandbox: PulumiSandbox, name: string, config: Record<string, string>): Promise<TierStack> {
    const file = path.join(ROOT, `Pulumi.${name}.yaml`);
    fs.writeFileSync(file, `# Real-engine tier stack (test/engine); removed when the test ends.\n${stringify({ config })}`);
    const run = (args: readonly string[], timeoutMs?: number) => pulumi([...args, "--stack", name, "--non-interactive"], sandbox.env, { timeoutMs });
    const init = await pulumi(["stack", "init", name, "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env);
    if (init.code !== 0) throw new Error(`pulumi stack init ${name} failed: ${tail(init)}`);
    return {
        name,
        file,
        sandbox,
        pulumi: run,
        async set(key, value, secret = false) {
            const r = await run(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
            if (r.code !== 0) throw new Error(`pulumi config set ${key} failed: ${tail(r)}`);
        },
        dispose: () => fs.rmSync(file, { force: true }),
    };
}
