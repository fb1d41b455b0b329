/**
 * The stack outputs `--from-stack` reads: from a file (or standard input) holding `pulumi stack output --json`, or
 * from the Pulumi CLI itself. Never with `--show-secrets`: none of the values a render needs is secret, and secret
 * outputs stay `"[secret]"`, so no secret is ever read in plain text.
 */
import { readFile } from "fs/promises";
import { ProcessFailure, runBounded } from "../host/boundedProcess";
import { parseJson } from "../host/json";
import { PULUMI_QUERY_MAX_BYTES, PULUMI_QUERY_TIMEOUT_MS } from "../host/pulumiLimits";
import { isMap } from "../contracts/kubeObject";

/** Parses `pulumi stack output --json`; throws a message naming `where` when it is not a JSON object. */
export function parseOutputs(json: string, where: string): Record<string, unknown> {
    const parsed = parseJson(json);
    if (!parsed.ok) throw new Error(`${where} is not JSON (${parsed.where}); write it with \`pulumi stack output --json\``);
    const value = parsed.value;
    if (!isMap(value)) throw new Error(`${where} is not a JSON object of stack outputs; write it with \`pulumi stack output --json\``);
    return value;
}

/** Reads the outputs from a file, or from standard input for "-". */
export async function outputsFromFile(file: string, stdin?: AsyncIterable<string | Buffer>): Promise<Record<string, unknown>> {
    let text = "";
    if (file === "-") {
        if (!stdin) throw new Error("--from-stack -: nothing to read on standard input");
        for await (const chunk of stdin) text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    } else {
        try {
            text = await readFile(file, "utf8");
        } catch (e) {
            throw new Error(`cannot read --from-stack ${file}: ${(e as Error).message}`);
        }
    }
    return parseOutputs(text, file === "-" ? "standard input" : file);
}

/**
 * Asks the Pulumi CLI for the outputs of `stack` in `projectDir` (its state backend, login and passphrase as for any
 * `pulumi` command).
 */
export async function outputsFromPulumi(stack: string, projectDir: string, env: Readonly<Record<string, string | undefined>>): Promise<Record<string, unknown>> {
    const args = ["stack", "output", "--json", "--stack", stack];
    const command = `\`pulumi ${args.join(" ")}\``;
    let run;
    try {
        // A query of the state backend: bounded as every Pulumi query mara runs (cli/stack/pulumi.ts).
        run = await runBounded({ file: "pulumi", args, cwd: projectDir, env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" }, deadlineMs: PULUMI_QUERY_TIMEOUT_MS, maxStdoutBytes: PULUMI_QUERY_MAX_BYTES });
    } catch (e) {
        if (!(e instanceof ProcessFailure)) throw e;
        if (e.kind === "not-found") {
            throw new Error(
                "--from-stack needs the Pulumi CLI (`pulumi` is not on PATH); or save the outputs where it is, with `pulumi stack output --json > outputs.json`, and pass --from-stack outputs.json",
            );
        }
        throw new Error(`${command} ${e.message}${e.kind === "timeout" ? "; is the state backend reachable? Or save the outputs with `pulumi stack output --json > outputs.json` and pass --from-stack outputs.json" : ""}`);
    }
    if (run.code !== 0) throw new Error(`${command} failed: ${run.stderrTail.trim() || `exit code ${run.code ?? run.signal}`}`);
    return parseOutputs(run.stdout, `the output of ${command}`);
}
