/**
 * `mara`: the first-run wrapper around this Pulumi program (MARA's runner, rebuilt). It prompts for
 * missing configuration and secrets, shows offline what would be created, and runs Pulumi's operations
 * through the Automation API with pre-flight checks.
 *
 * Usage: npx mara <command> [options]   (or: npm run mara -- <command> [options])
 */
import * as fs from "fs";
import * as path from "path";
import { Command, CommanderError } from "commander";
import { CommandContext } from "./command";
import { CliIo, EXIT, PROJECT_DIR } from "./io";
import { terminalPrompter } from "./prompts";
import * as destroy from "./register/destroy";
import * as doctor from "./register/doctor";
import * as init from "./register/init";
import * as kubeconfig from "./register/kubeconfig";
import * as listProviders from "./register/listProviders";
import * as outdated from "./register/outdated";
import * as plan from "./register/plan";
import * as preview from "./register/preview";
import * as refresh from "./register/refresh";
import * as render from "./register/render";
import * as up from "./register/up";
import * as validate from "./register/validate";
import * as verify from "./register/verify";

/**
 * The commands, in the order `mara --help` lists them. Each is a registration module (cli/register/):
 * its name, options and help, and an action that loads the command's implementation only when it runs,
 * so `mara --help` and every command's `--help` load none of them (docs/cli.md, "Adding a command").
 */
const COMMANDS = [init, plan, render, validate, listProviders, outdated, doctor, up, preview, destroy, refresh, kubeconfig, verify];

/** The real terminal, environment and working directory. */
export function processIo(): CliIo {
    return {
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
        prompter: terminalPrompter(),
        env: process.env,
        cwd: process.cwd(),
        projectDir: PROJECT_DIR,
        colour: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
    };
}

function version(): string {
    try {
        return (JSON.parse(fs.readFileSync(path.join(PROJECT_DIR, "package.json"), "utf8")) as { version?: string }).version ?? "0.0.0";
    } catch {
        return "0.0.0";
    }
}

/**
 * Runs one `mara` command line.
 *
 * @param argv - the arguments after `mara`.
 * @returns the exit code: 0 success, 1 failure or invalid config, 2 wrong command line, 3 failed pre-flight check;
 *   `outdated` also 4 (a newer version exists) and 5 (a source could not be checked); `doctor` 6 (a check failed)
 *   and 7 (the cluster could not be reached).
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
    let code: number = EXIT.ok;
    const ctx: CommandContext = { io, setExit: (c) => (code = c) };
    // Commander's settings are copied to subcommands created after them, so set them first.
    const program = new Command("mara")
        .description("Deploy NGINX's Modern Application Reference Architecture (MARA) with Pulumi: first-run setup, offline plan, deploy.")
        .version(version(), "-V, --version")
        .exitOverride()
        .showHelpAfterError("(run mara --help for usage)")
        .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
    for (const command of COMMANDS) command.register(program, ctx);
    try {
        await program.parseAsync([...argv], { from: "user" });
    } catch (err) {
        if (!(err instanceof CommanderError)) throw err;
        // --help and --version end here with code 0; everything else is a wrong command line.
        return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return code;
}

if (require.main === module) {
    main(process.argv.slice(2)).then(
        (code) => {
            process.exitCode = code;
        },
        (err: unknown) => {
            process.stderr.write(`mara: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
            process.exitCode = EXIT.failed;
        },
    );
}
