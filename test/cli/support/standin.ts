/**
 * A stand-in `pulumi` executable for testing the Automation API paths. The real Pulumi CLI cannot be
 * installed on these machines (no network beyond the npm registry, and the npm `pulumi` wrapper only
 * downloads the binary), so each test writes this small Node script into a temp directory that goes
 * first on PATH. The Automation API finds it exactly as it finds the real CLI (`pulumi` on PATH, asked
 * for `pulumi version` with PULUMI_SKIP_UPDATE_CHECK=true, then every command run in the workspace
 * directory). It records every argv, keeps its backend and stacks in a JSON state file, writes stack
 * files like the CLI does, and answers with plausible output.
 *
 * Its version defaults to v3.200.0: new enough for mara (>= 3.150) and old enough (<= 3.205) that the
 * Automation API passes a file for `--event-log`, which the stand-in fills with a summary event.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** One stack as the stand-in keeps it. */
export interface StandinStack {
    config: Record<string, { value: string; secret: boolean }>;
    outputs: Record<string, { value: unknown; secret: boolean }>;
    /** The stack encrypts secrets with a passphrase (a local backend's default). */
    passphrase?: boolean;
    /** Resources in the stack's state, as `pulumi stack export` prints them. */
    resources?: { urn: string; type: string; inputs?: Record<string, unknown> }[];
}

/** The stand-in's state file. */
export interface StandinState {
    version: string;
    /** Backend URL; null means not logged in (`pulumi whoami` fails). */
    backend: string | null;
    current?: string;
    stacks: Record<string, StandinStack>;
    /** Operations that fail, with the error printed. */
    fail?: Partial<Record<"up" | "preview" | "destroy" | "refresh", string>>;
}

/** One recorded invocation. */
export interface Call {
    args: string[];
    cwd: string;
    passphrase?: string;
    skipUpdateCheck?: string;
}

const SCRIPT = String.raw`#!/usr/bin/env node
"use strict";
const fs = require("fs");
const path = require("path");
const dir = __dirname;
const statePath = path.join(dir, "state.json");
const state = JSON.parse(fs.readFileSync(statePath, "utf8"));
const args = process.argv.slice(2);
fs.appendFileSync(path.join(dir, "calls.jsonl"), JSON.stringify({
    args, cwd: process.cwd(),
    passphrase: process.env.PULUMI_CONFIG_PASSPHRASE,
    skipUpdateCheck: process.env.PULUMI_SKIP_UPDATE_CHECK,
}) + "\n");
const save = () => fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const out = (text) => process.stdout.write(text + "\n");
const fail = (text) => { process.stderr.write(text + "\n"); process.exit(255); };
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function stackOf(name) {
    const s = state.stacks[name];
    if (!s) fail("error: no stack named '" + name + "' found");
    return s;
}
function needPassphrase(s) {
    if (s.passphrase && process.env.PULUMI_CONFIG_PASSPHRASE === undefined && process.env.PULUMI_CONFIG_PASSPHRASE_FILE === undefined) {
        fail("error: constructing secrets manager of type \"passphrase\": passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables");
    }
}
// Ciphertext in the form the real CLI writes, so the program's own checks of secure: values accept the file:
// under a passphrase AES-256-GCM, v1:<12-byte nonce>:<ciphertext and 16-byte tag>, both base64, with an
// encryptionsalt of the same kind; with a service or KMS, the provider's base64 ciphertext. The stand-in keeps
// the plain values in its state, so these only need the right shape: bytes derived from the key and value.
const bytes = (seed, n) => {
    const out = [];
    for (let i = 0; out.length < n; i++) out.push(...require("crypto").createHash("sha256").update(seed + ":" + i).digest());
    return Buffer.from(out.slice(0, n)).toString("base64");
};
function ciphertext(s, key, value) {
    const body = bytes("value:" + key + ":" + value, Buffer.byteLength(value) + 16);
    return s.passphrase ? "v1:" + bytes("nonce:" + key + ":" + value, 12) + ":" + body : body;
}
function writeStackFile(name) {
    const s = state.stacks[name];
    const config = {};
    for (const [k, v] of Object.entries(s.config)) config[k] = v.secret ? { secure: ciphertext(s, k, v.value) } : v.value;
    const salt = "v1:" + bytes("salt:" + name, 8) + ":v1:" + bytes("salt-nonce:" + name, 12) + ":" + bytes("salt-check:" + name, 22);
    const doc = s.passphrase ? { encryptionsalt: salt, config } : { config };
    fs.writeFileSync(path.join(process.cwd(), "Pulumi." + name + ".yaml"), JSON.stringify(doc, null, 2) + "\n");
}
function setConfig(name, pairs) {
    const s = stackOf(name);
    needPassphrase(s);
    for (const [secret, kv] of pairs) {
        const eq = kv.indexOf("=");
        s.config[kv.slice(0, eq)] = { value: kv.slice(eq + 1), secret };
    }
    save();
    writeStackFile(name);
}
function operation(op) {
    const name = opt("--stack");
    const s = stackOf(name);
    needPassphrase(s);
    const log = opt("--event-log");
    const title = { up: "Updating", preview: "Previewing update", destroy: "Destroying", refresh: "Refreshing" }[op];
    out(title + " (" + name + "):");
    out("    pulumi:pulumi:Stack mara-" + name + " " + (op === "destroy" ? "deleting" : "running"));
    if (state.fail && state.fail[op]) {
        process.stderr.write(state.fail[op] + "\n");
        process.exit(255);
    }
    out("Resources:");
    out(op === "destroy" ? "    - 97 deleted" : op === "refresh" ? "    97 unchanged" : "    + 97 to create");
    if (op === "up") {
        const infra = (s.config["mara:infraType"] || s.config["kubernetes:infra_type"] || { value: "aws" }).value;
        s.outputs = Object.assign({ infra_type: { value: infra.toLowerCase(), secret: false } }, state.upOutputs || {}, s.outputs);
    }
    if (op === "destroy") s.outputs = {};
    if (op !== "preview") s.history = [{ version: 1, kind: op === "up" ? "update" : op, startTime: "2026-11-21T12:00:00Z", endTime: "2026-11-21T12:00:01Z", message: "", environment: {}, config: {}, result: "succeeded", resourceChanges: { create: 97 } }];
    save();
    if (log && !log.startsWith("tcp://")) {
        fs.appendFileSync(log, JSON.stringify({ sequence: 1, timestamp: 1, summaryEvent: { maybeCorrupt: false, durationSeconds: 1, resourceChanges: { create: 97 }, policyPacks: {} } }) + "\n");
        sleep(450); // the Automation API polls the event log every 200 ms
    }
}

const [cmd, sub] = args;
if (!state.backend && !["version", "login", "whoami"].includes(cmd)) {
    fail("error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions");
}
switch (cmd) {
    case "version":
        out(state.version);
        break;
    case "whoami":
        if (!state.backend) fail("error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions");
        out(args.includes("--json") ? JSON.stringify({ user: "tester", url: state.backend, organizations: [] }) : "tester");
        break;
    case "login":
        state.backend = args[1];
        save();
        out("Logged in to " + args[1]);
        break;
    case "stack":
        if (sub === "select") {
            stackOf(opt("--stack"));
            state.current = opt("--stack");
            save();
        } else if (sub === "init") {
            const name = args[2];
            if (state.stacks[name]) fail("error: stack '" + name + "' already exists");
            // Self-managed backends (file://, s3://, ...) default to a passphrase, as the CLI does; the Pulumi Cloud to its own.
            const passphrase = !(state.backend || "").startsWith("https://");
            state.stacks[name] = { config: {}, outputs: {}, passphrase };
            needPassphrase(state.stacks[name]);
            state.current = name;
            save();
            writeStackFile(name);
            out("Created stack '" + name + "'");
        } else if (sub === "ls") {
            out(JSON.stringify(Object.keys(state.stacks).map((name) => ({ name, current: name === state.current, updateInProgress: false }))));
        } else if (sub === "output") {
            const s = stackOf(opt("--stack"));
            needPassphrase(s);
            const show = args.includes("--show-secrets");
            out(JSON.stringify(Object.fromEntries(Object.entries(s.outputs).map(([k, v]) => [k, v.secret && !show ? "[secret]" : v.value]))));
        } else if (sub === "export") {
            const s = stackOf(opt("--stack"));
            needPassphrase(s);
            out(JSON.stringify({ version: 3, deployment: { manifest: {}, resources: s.resources || [] } }));
        } else if (sub === "history") {
            out(JSON.stringify(stackOf(opt("--stack")).history || []));
        } else fail("stand-in: unsupported: pulumi " + args.join(" "));
        break;
    case "config": {
        const name = opt("--stack");
        if (sub === "set-all") {
            const pairs = [];
            for (let i = 2; i < args.length; i++) {
                if (args[i] === "--plaintext" || args[i] === "--secret") pairs.push([args[i] === "--secret", args[++i]]);
            }
            setConfig(name, pairs);
        } else if (sub === "set") {
            const key = args[2];
            setConfig(name, [[args.includes("--secret"), key + "=" + args[args.indexOf("--") + 1]]]);
        } else if (sub === "--show-secrets" || sub === "--json") {
            const s = stackOf(name);
            needPassphrase(s);
            out(JSON.stringify(s.config));
        } else fail("stand-in: unsupported: pulumi " + args.join(" "));
        break;
    }
    case "up":
    case "preview":
    case "destroy":
    case "refresh":
        operation(cmd);
        break;
    default:
        fail("stand-in: unsupported: pulumi " + args.join(" "));
}
`;

/** A stand-in CLI in its own directory, with helpers to read what it was asked. */
export interface Standin {
    /** Directory holding the script (put first on PATH). */
    readonly binDir: string;
    /** A Pulumi project directory for the workspace (Pulumi.yaml, stack files). */
    readonly projectDir: string;
    /** A HOME for the run. */
    readonly home: string;
    /** PATH with the stand-in first and node, but not /usr/local/bin (where this machine's docker lives). */
    readonly path: string;
    state(): StandinState;
    setState(update: (s: StandinState) => void): void;
    calls(): Call[];
    /** Adds another fake executable (docker, aws) to the stand-in directory. */
    addTool(name: string, script: string): void;
    /** Deletes the temp directory. */
    remove(): void;
}

/** Writes the stand-in and an empty project into a new temp directory. */
export function makeStandin(initial: Partial<StandinState> = {}): Standin {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "mara-standin-"));
    const binDir = path.join(root, "bin");
    const projectDir = path.join(root, "project");
    const home = path.join(root, "home");
    for (const d of [binDir, projectDir, home]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(binDir, "pulumi"), SCRIPT, { mode: 0o755 });
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), "name: mara\nruntime: nodejs\n");
    const statePath = path.join(binDir, "state.json");
    const state: StandinState = { version: "v3.200.0", backend: "https://api.pulumi.com", stacks: {}, ...initial };
    fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
    const read = (): StandinState => JSON.parse(fs.readFileSync(statePath, "utf8")) as StandinState;
    return {
        binDir,
        projectDir,
        home,
        path: [binDir, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
        state: read,
        setState(update) {
            const s = read();
            update(s);
            fs.writeFileSync(statePath, JSON.stringify(s, null, 2));
        },
        calls() {
            const file = path.join(binDir, "calls.jsonl");
            return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Call) : [];
        },
        addTool(name, script) {
            fs.writeFileSync(path.join(binDir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
        },
        remove: () => fs.rmSync(root, { recursive: true, force: true }),
    };
}

/**
 * Puts the stand-in first on the process PATH (the Automation API spawns `pulumi` with the process
 * environment) and returns a function that restores it.
 */
export function useStandinPath(s: Standin): () => void {
    const saved = process.env.PATH;
    process.env.PATH = s.path;
    return () => {
        process.env.PATH = saved;
    };
}
