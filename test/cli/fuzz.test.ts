/**
 * Fuzzing what comes from outside: stack files (generated mappings of known and unknown keys with values that have
 * broken parsers before, real stack files with random mutations, raw bytes), `mara render`'s options, and the stack
 * outputs `--from-stack` reads. No input may produce a stack trace, an unexpected error, a hang or a secret in the
 * output. Each part runs a fixed number of cases (never "as many as fit in so many seconds", so a seed runs the same
 * cases on a busy machine), and counts what they did: a fuzz that only ever met one kind of outcome would prove
 * little. A case that hangs meets the test's timeout, a safety net far above what the cases take. A failure names
 * its seed, and FUZZ_SEED=<seed> replays it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { DEPLOY_VALUES, DeployValueKey, deployValueProblems, deployValues } from "../../render/deployValues";
import { parseOutputs } from "../../render/stackOutputs";
import { formatProblem, KNOWN_KEYS } from "../../config";
import { fuzz, NASTY, NASTY_VALUES, Rand } from "../support/fuzz";
import { runMara } from "./support/io";

const FIXTURES = path.join(__dirname, "..", "fixtures");
const REAL_FILES = ["mara-aws", "mara-do", "mara-lke", "canonical-aws", "minimal-aws"].map((n) => fs.readFileSync(path.join(FIXTURES, `Pulumi.${n}.yaml`), "utf8"));
/** A secret in every generated stack; it must never be printed. */
const MARKER = "fz-Secr3t-Marker-7c1e";
const SECRET_KEYS = ["mara:grafanaAdminPassword", "sirius:demo_login_pwd", "mara:nginxJwt", "mara:registryPassword", "mara:grafanaAdminPasswrod"];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-fuzz-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What every command's output must never hold. */
function expectClean(what: string, out: { code: number; stdout: string; stderr: string }): void {
    const text = out.stdout + out.stderr;
    expect([0, 1, 2], `${what}: exit ${out.code}\n${out.stderr.slice(0, 2000)}`).toContain(out.code);
    expect(text, `${what}: a stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error/);
    expect(text, `${what}: the secret`).not.toContain(MARKER);
    expect(text.length, `${what}: ${text.length} characters of output`).toBeLessThan(100_000);
}

/** How many cases ended with each exit code, by kind of input. */
function tally(): { add(kind: string, code: number): void; readonly counts: Record<string, Record<number, number>> } {
    const counts: Record<string, Record<number, number>> = {};
    return { counts, add: (kind, code) => void ((counts[kind] ??= {})[code] = (counts[kind]![code] ?? 0) + 1) };
}

const value = (r: Rand) => (r.chance(0.6) ? r.pick(NASTY_VALUES) : r.string(r.int(40), `${NASTY}abcxyz019.`));
const someKey = (r: Rand) => (r.chance(0.7) ? r.pick(KNOWN_KEYS) : `${r.string(1 + r.int(8), "abcdefk-:")}:${r.string(1 + r.int(12), "abcdefg_.-:")}`);

/** A stack file built as a mapping: keys known and not, values of every kind, a secret, sometimes a broken line. */
function generated(r: Rand): string {
    const config: Record<string, unknown> = { "kubernetes:infra_type": r.pick(["AWS", "DO", "LKE", "kubeconfig", "gcp", ""]) };
    for (let i = r.int(25); i > 0; i--) {
        const k = someKey(r);
        config[k] = r.chance(0.1) ? { secure: value(r) } : r.chance(0.1) ? [value(r), value(r)] : r.chance(0.05) ? { "kic:key_path": value(r), other: value(r) } : value(r);
    }
    config[r.pick(SECRET_KEYS)] = MARKER;
    let text = stringify({ ...(r.chance(0.2) ? { encryptionsalt: value(r) } : {}), config });
    if (r.chance(0.3)) {
        // A broken line somewhere that is not the secret's own line.
        const lines = text.split("\n");
        const at = r.int(lines.length);
        if (!lines[at]!.includes(MARKER)) lines.splice(at, 0, `  ${r.string(1 + r.int(20), NASTY)}`);
        text = lines.join("\n");
    }
    return text;
}

/** A real stack file with random characters inserted, lines deleted, duplicated or re-indented, and documents added. */
function mutated(r: Rand): string {
    let lines = r.pick(REAL_FILES).split("\n");
    for (let n = 1 + r.int(6); n > 0; n--) {
        const at = r.int(lines.length);
        const line = lines[at] ?? "";
        switch (r.int(6)) {
            case 0:
                lines[at] = `${line.slice(0, r.int(line.length + 1))}${r.string(1 + r.int(4), NASTY)}${line.slice(r.int(line.length + 1))}`;
                break;
            case 1:
                lines.splice(at, 1);
                break;
            case 2:
                lines.splice(at, 0, line);
                break;
            case 3:
                lines[at] = `${" ".repeat(r.int(6))}${line.trimStart()}`;
                break;
            case 4:
                lines.splice(at, 0, r.pick(["---", "...", "&a [*a, *a]", "b: &b [*b]", `x: ${"[".repeat(200)}`, "%YAML 1.1", "? complex key"]));
                break;
            default:
                lines = lines.slice(0, at);
        }
    }
    return lines.join("\n");
}

/** Bytes that may not be text at all: a byte-order mark, NULs, invalid UTF-8. */
function bytes(r: Rand): Buffer {
    const body = Buffer.from(generated(r), r.pick(["utf8", "utf16le", "latin1"] as const));
    const noise = Buffer.from(Array.from({ length: r.int(8) }, () => r.int(256)));
    const bom = r.pick([[], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0, 0, 0xfe, 0xff]]);
    return Buffer.concat([Buffer.from(bom), r.chance(0.5) ? noise : Buffer.alloc(0), body]);
}

describe("the stack-file loader", () => {
    it("survives generated, mutated and binary stack files through mara validate", async () => {
        const outcomes = tally();
        await fuzz({ runs: 400, seed: 20261125 }, async (r, i) => {
            const kind = r.pick(["generated", "mutated", "bytes"] as const);
            const file = path.join(dir, `Pulumi.fuzz-${i}.yaml`);
            const content = kind === "generated" ? generated(r) : kind === "mutated" ? mutated(r) : bytes(r);
            fs.writeFileSync(file, content);
            const out = await runMara(["validate", "-c", file], { cwd: dir, env: { HOME: dir, PATH: process.env.PATH } });
            // Mutations may turn the secret into another key's value; the secret is only asserted where it stayed one.
            expectClean(`${kind} ${file}`, kind === "mutated" ? { ...out, stdout: out.stdout.replaceAll(MARKER, ""), stderr: out.stderr.replaceAll(MARKER, "") } : out);
            outcomes.add(kind, out.code);
            fs.rmSync(file);
        });
        // Every kind of input ran, and both verdicts were reached: some mutated real files still pass.
        expect(Object.keys(outcomes.counts).sort()).toEqual(["bytes", "generated", "mutated"]);
        expect(Object.keys(Object.assign({}, ...Object.values(outcomes.counts))).sort()).toEqual(expect.arrayContaining(["0", "1"]));
    }, 120_000);
});

describe("mara render's options", () => {
    /** Every option's value, from what people type to what breaks paths and names. */
    const option = (r: Rand): string[] => {
        const s = () => (r.chance(0.5) ? r.pick(NASTY_VALUES) : r.string(r.int(30), `${NASTY}abcAZ09.-_/`));
        const args: string[] = ["--out", r.pick(["out", "", ".", "/proc/fuzz/out", "file/out", "a b/c", "x\u0000y", "~", "-", "a".repeat(300), "link-to-nothing"])];
        if (r.chance(0.6)) args.push("--secret-store", s());
        if (r.chance(0.3)) args.push("--secrets", r.pick(["omit", "OMIT", "plain", ""]));
        if (r.chance(0.3)) args.push("--secret-store-kind", r.pick(["SecretStore", "ClusterSecretStore", "secretstore", s()]));
        if (r.chance(0.3)) args.push("--remote-key-prefix", s());
        if (r.chance(0.3)) args.push("--kube-version", r.pick(["1.35", "1.3a", "99", s()]));
        if (r.chance(0.3)) args.push("--from-stack", r.pick(["outputs.json", "missing.json", "-", "file", s()]));
        if (r.chance(0.2)) args.push("--allow-placeholders");
        if (r.chance(0.1)) args.push(s());
        return args;
    };

    it("refuses what it cannot use with a message, before any work", async () => {
        const work = path.join(dir, "render-options");
        fs.mkdirSync(work);
        fs.writeFileSync(path.join(work, "file"), "not a folder");
        fs.symlinkSync(path.join(work, "nowhere"), path.join(work, "link-to-nothing"));
        fs.writeFileSync(path.join(work, "outputs.json"), JSON.stringify({ lb_ingress_hostname: "a\nb" }));
        // A stack refused by validation, holding a secret: nothing reaches a render, whatever the options.
        const stack = path.join(work, "Pulumi.fuzz.yaml");
        fs.writeFileSync(stack, stringify({ config: { "kubernetes:infra_type": "gcp", "mara:grafanaAdminPassword": MARKER } }));
        const outcomes = tally();
        await fuzz({ runs: 150, seed: 1125 }, async (r) => {
            const args = ["render", "-c", stack, ...option(r)];
            const out = await runMara(args, { cwd: work, env: { HOME: work, PATH: "/nonexistent" } });
            expectClean(JSON.stringify(args), out);
            expect(out.code, JSON.stringify(args)).not.toBe(0);
            outcomes.add("render", out.code);
        });
        // Each case was refused by a check (usage or validation), none by anything else.
        expect(Object.keys(outcomes.counts.render!).every((code) => code === "1" || code === "2"), JSON.stringify(outcomes.counts)).toBe(true);
        expect(fs.readdirSync(work).sort()).toEqual(["Pulumi.fuzz.yaml", "file", "link-to-nothing", "outputs.json"]);
    }, 120_000);
});

describe("deploy-time values from stack outputs", () => {
    const KEYS = Object.keys(DEPLOY_VALUES) as DeployValueKey[];
    const OUTPUTS = [...new Set(Object.values(DEPLOY_VALUES).map((d) => d.output))];
    const anyValue = (r: Rand): unknown =>
        r.pick([() => value(r), () => r.int(1000), () => null, () => true, () => [value(r)], () => ({ v: value(r) }), () => "[secret]", () => `sha256:${r.string(64, "0123456789abcdef")}`, () => `${r.string(1 + r.int(20), "abc-.")}.example.com`])();

    it("every value is checked by its form: refused with a bounded message, or used only when it passes", async () => {
        let refused = 0;
        let used = 0;
        await fuzz({ runs: 3_000, seed: 7 }, (r) => {
            const outputs: Record<string, unknown> = {};
            for (const o of OUTPUTS) if (r.chance(0.7)) outputs[o] = anyValue(r);
            const problems = deployValueProblems(outputs, "outputs.json");
            for (const p of problems) expect(formatProblem(p).length).toBeLessThan(1_500);
            refused += problems.length;
            const values = deployValues(outputs);
            for (const k of KEYS) {
                const v = values.value(k);
                if (v !== DEPLOY_VALUES[k].placeholder) {
                    expect(DEPLOY_VALUES[k].problem(v), `${k} = ${JSON.stringify(v)}`).toBeUndefined();
                    used++;
                }
            }
        });
        // Both ways were taken, many times: values refused and values used.
        expect(refused).toBeGreaterThan(100);
        expect(used).toBeGreaterThan(100);
    });

    it("text that is not a JSON object of outputs is refused by name, never with a parser's crash", async () => {
        const outcomes = tally();
        await fuzz({ runs: 2_000, seed: 11 }, (r) => {
            const text = r.chance(0.5) ? r.string(r.int(60), `${NASTY}{}[]":,0123456789aelnrstu`) : JSON.stringify(anyValue(r));
            try {
                const parsed = parseOutputs(text, "outputs.json");
                expect(typeof parsed).toBe("object");
                outcomes.add("parsed", 0);
            } catch (e) {
                const [, why] = /^outputs\.json is not (JSON|a JSON object of stack outputs)/.exec((e as Error).message) ?? [];
                expect(why, (e as Error).message).toBeDefined();
                outcomes.add(why === "JSON" ? "not JSON" : "not an object", 1);
            }
        });
        // Each outcome was met: parsed, not JSON, JSON but not an object.
        expect(Object.keys(outcomes.counts).sort()).toEqual(["not JSON", "not an object", "parsed"]);
    });

    it("through mara render: a stack's outputs with a value no manifest may hold stop it before rendering", async () => {
        const work = path.join(dir, "render-outputs");
        fs.mkdirSync(work);
        await fuzz({ runs: 25, seed: 99 }, async (r) => {
            const outputs: Record<string, unknown> = {};
            for (const o of OUTPUTS) if (r.chance(0.6)) outputs[o] = anyValue(r);
            // One value that cannot pass, so no case costs a whole render.
            outputs[r.pick(OUTPUTS)] = r.pick(["a\nb", "https://x.example/r", 42, "x".repeat(100_000), { nested: true }]);
            fs.writeFileSync(path.join(work, "outputs.json"), JSON.stringify(outputs));
            const out = await runMara(["render", "-c", path.join(FIXTURES, "Pulumi.minimal-aws.yaml"), "--out", "out", "--secrets=omit", "--from-stack", "outputs.json"], { cwd: work });
            expectClean(JSON.stringify(outputs).slice(0, 300), out);
            expect(out.code).toBe(1);
            expect(out.stderr).toContain("no manifest may hold, so nothing was rendered");
            expect(fs.existsSync(path.join(work, "out"))).toBe(false);
        });
    }, 120_000);
});
