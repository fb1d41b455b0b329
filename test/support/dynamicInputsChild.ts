/**
 * A child process that runs the program the way `pulumi up` loads it (ts-node, transpile-only) under
 * mocks, for each fixture named on the command line, and prints the inputs of the program's dynamic
 * resources (the drain and the volume retention step), serialized provider (`__provider`) included,
 * as one `DYNAMIC_INPUTS <json>` line per fixture. Two such processes stand for two `pulumi preview`s.
 */
import { fixture } from "./config";
import { installMocks, settle, unwrapSecrets } from "./mocks";

const SECRETS = { "digitalocean:token": "do-token", "linode:token": "linode-token" };
const PROGRAM_ENV = ["AWS_REGION", "AWS_DEFAULT_REGION", "DIGITALOCEAN_TOKEN", "LINODE_TOKEN"];

async function main(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const program = require("../../index") as () => unknown;
    for (const name of process.argv.slice(2)) {
        const raw = fixture(name, { secrets: SECRETS });
        PROGRAM_ENV.forEach((k) => delete process.env[k]);
        Object.assign(process.env, raw.env);
        const { registrations } = await installMocks({ config: { ...raw.values }, secretKeys: [...raw.secretKeys], project: raw.project, stack: raw.stack });
        program();
        await settle();
        const inputs = (n: string) => unwrapSecrets(registrations.find((r) => r.type === "pulumi-nodejs:dynamic:Resource" && r.name === n)?.inputs);
        process.stdout.write(`\nDYNAMIC_INPUTS ${JSON.stringify({ fixture: name, drain: inputs("drain-drain"), retention: inputs("volume-retention-retain") })}\n`);
    }
}

main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
});
