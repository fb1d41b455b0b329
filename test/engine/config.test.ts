/**
 * The real CLI reads every fixture stack, and what it hands the program (project defaults merged, values typed as
 * the project declares them, `secure:` values decrypted with the stack's passphrase, the list of secret keys)
 * equals what config/projectConfig.ts computes from the same file — the computation `mara validate`, `mara plan`,
 * `mara render` and every offline test rely on. A difference fails.
 *
 * The fixtures' ciphertexts belong to keys nobody has, so each secret is set anew with `pulumi config set --secret`
 * (to a marker value) in a copy of the fixture; everything else is the fixture as written. The stand-in language
 * host's MARA_ENGINE_CONFIG_DUMP hook records what the CLI sent instead of running the program.
 */
import * as fs from "fs";
import * as path from "path";
import { parseDocument } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyProjectConfig, parseStackFile } from "../../config";
import { ROOT } from "./cluster";
import { pulumi, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";

const FIXTURES = path.join(ROOT, "test", "fixtures");
const fixtures = fs
    .readdirSync(FIXTURES)
    .filter((f) => /^Pulumi\..+\.yaml$/.test(f))
    .map((f) => f.slice("Pulumi.".length, -".yaml".length));

let sandbox: PulumiSandbox;
beforeAll(() => {
    sandbox = pulumiSandbox({}, ["pulumi"]);
});
afterAll(() => sandbox?.dispose());

/** The fixture without its `secure:` values (and its salt), and those keys with a marker plaintext each. */
function withoutSecrets(text: string): { text: string; secrets: Record<string, string> } {
    const doc = parseDocument(text);
    doc.delete("encryptionsalt");
    const config = doc.get("config") as { items: { key: { value: string }; value: unknown }[] } | undefined;
    const secrets: Record<string, string> = {};
    for (const item of [...(config?.items ?? [])]) {
        const v = item.value as { get?: (k: string) => unknown } | null;
        if (v && typeof v === "object" && typeof v.get === "function" && v.get("secure") !== undefined) {
            secrets[item.key.value] = `marker-${item.key.value.replace(/\W/g, "-")}`;
            doc.deleteIn(["config", item.key.value]);
        }
    }
    return { text: doc.toString(), secrets };
}

describe("the real Pulumi CLI delivers each fixture's configuration as config/projectConfig.ts computes it", () => {
    it.each(fixtures)("%s", async (name) => {
        const stack = `engine-config-${name}-${process.pid}`;
        const file = path.join(ROOT, `Pulumi.${stack}.yaml`);
        const dump = path.join(sandbox.dir, `${stack}.json`);
        const { text, secrets } = withoutSecrets(fs.readFileSync(path.join(FIXTURES, `Pulumi.${name}.yaml`), "utf8"));
        try {
            fs.writeFileSync(file, text);
            const run = (args: string[]) => pulumi([...args, "--stack", stack, "--non-interactive"], { ...sandbox.env, MARA_ENGINE_CONFIG_DUMP: dump });
            const init = await pulumi(["stack", "init", stack, "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env);
            expect(init.code, tail(init)).toBe(0);
            for (const [key, value] of Object.entries(secrets)) {
                const set = await run(["config", "set", "--secret", key, value]);
                expect(set.code, tail(set)).toBe(0);
            }
            const preview = await run(["preview"]);
            expect(preview.code, tail(preview)).toBe(0);
            const got = JSON.parse(fs.readFileSync(dump, "utf8")) as { config: Record<string, string>; secretKeys: string[] };

            const written = fs.readFileSync(file, "utf8");
            const expected = applyProjectConfig(parseStackFile(written, { project: "mara", stack }), fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8"));
            expect(Object.keys(got.config).sort()).toEqual(Object.keys(expected.values).sort());
            expect([...got.secretKeys].sort()).toEqual([...expected.secretKeys].sort());
            for (const [key, value] of Object.entries(expected.values)) {
                if (expected.secretKeys.has(key)) expect(got.config[key], key).toBe(secrets[key]);
                else expect(got.config[key], key).toBe(value);
            }
        } finally {
            fs.rmSync(file, { force: true });
            await pulumi(["stack", "rm", stack, "--yes", "--force", "--non-interactive"], sandbox.env);
        }
    });
});
