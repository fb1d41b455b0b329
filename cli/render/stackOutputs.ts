/**
 * The stack outputs `--from-stack` reads: from a file (or standard input) holding `pulumi stack output --json`, or
 * from the Pulumi CLI itself. Never with `--show-secrets`: none of the values a render needs is secret, and secret
 * outputs stay `"[secret]"`, so no secret is ever read in plain text.
 */
import { execFile } from "child_process";
import { readFile } from "fs/promises";
import { isMap } from "./charts";

/** Parses `pulumi stack output --json`; throws a message naming `where` when it is not a JSON object. */
export function parseOutputs(json: string, where: string): Record<string, unknown> {
    let value: unknown;
    try {
        value = JSON.parse(json);
    } catch (e) {
        throw new Error(`${where} is not JSON (${(e as Error).message}); write it with \`pulumi stack output --json\``);
    }
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
export function outputsFromPulumi(stack: string, projectDir: string, env: Readonly<Record<string, string | undefined>>): Promise<Record<string, unknown>> {
    const args = ["stack", "output", "--json", "--stack", stack];
    return new Promise((resolve, reject) => {
        execFile("pulumi", args, { cwd: projectDir, env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" } as NodeJS.ProcessEnv }, (err, stdout, stderr) => {
            if (err) {
                const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
                reject(
                    new Error(
                        missing
                            ? "--from-stack needs the Pulumi CLI (`pulumi` is not on PATH); or save the outputs where it is, with `pulumi stack output --json > outputs.json`, and pass --from-stack outputs.json"
                            : `\`pulumi ${args.join(" ")}\` failed: ${(stderr || err.message).trim()}`,
                    ),
                );
                return;
            }
            try {
                resolve(parseOutputs(stdout, `the output of \`pulumi ${args.join(" ")}\``));
            } catch (e) {
                reject(e);
            }
        });
    });
}
