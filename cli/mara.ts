/**
 * `mara`: the first-run wrapper around this Pulumi program (MARA's runner, rebuilt). It prompts for
 * missing configuration and secrets, shows offline what would be created, and runs Pulumi's operations
 * through the Automation API with pre-flight checks.
 *
 * Usage: npx mara <command> [options]   (or: npm run mara -- <command> [options])
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API and readline.
import fs from "fs";
import * as path from "path";
import { Command, CommanderError } from "commander";
import { CommandContext } from "./kernel/command";
import { CliIo, EXIT, line, PROJECT_DIR, withRedactedOutput } from "./kernel/io";
import { terminalPrompter } from "./kernel/prompts";
import { unknownCommandMessage } from "./kernel/unknownCommand";

/** What a registration module (cli/register/) exports. */
interface Registration {
    register(program: Command, ctx: CommandContext): void;
}

/** A command: the words that start it (its name, then its aliases) and its registration module. */
export interface CommandEntry {
    readonly names: readonly string[];
    readonly load: () => Registration;
}

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * The commands, in the order `mara --help` lists them. Each is a registration module: its name, options and
 * help, and an action that loads the command's implementation only when it runs, so `mara --help` and every
 * command's `--help` load none of them (docs/cli.md, "Adding a command"). The modules themselves are loaded
 * when needed too: `mara validate ...` registers `validate` alone, and only the general help needs them all.
 */
export const COMMANDS: readonly CommandEntry[] = [
    { names: ["init"], load: () => require("./register/init") as Registration },
    { names: ["plan"], load: () => require("./register/plan") as Registration },
    { names: ["render"], load: () => require("./register/render") as Registration },
    { names: ["validate"], load: () => require("./register/validate") as Registration },
    { names: ["list-providers"], load: () => require("./register/listProviders") as Registration },
    { names: ["outdated"], load: () => require("./register/outdated") as Registration },
    { names: ["doctor"], load: () => require("./register/doctor") as Registration },
    { names: ["up"], load: () => require("./register/up") as Registration },
    { names: ["preview"], load: () => require("./register/preview") as Registration },
    { names: ["destroy", "down"], load: () => require("./register/destroy") as Registration },
    { names: ["refresh"], load: () => require("./register/refresh") as Registration },
    { names: ["kubeconfig"], load: () => require("./register/kubeconfig") as Registration },
    { names: ["open"], load: () => require("./register/open") as Registration },
    { names: ["verify"], load: () => require("./register/verify") as Registration },
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** The command an argument list asks for (`mara help X` asks for X's help), or undefined: general help or version. */
function requested(argv: readonly string[]): CommandEntry | undefined {
    const words = argv.filter((a) => !a.startsWith("-"));
    const word = words[0] === "help" ? words[1] : words[0];
    return COMMANDS.find((c) => word !== undefined && c.names.includes(word));
}

/** The real terminal, environment and working directory. */
export function processIo(): CliIo {
    return {
        stdout: process.stdout,
        stderr: process.stderr,
        // On first use only: Node.js builds process.stdin when it is first read, and for a file or /dev/null that
        // loads its file streams and promise API, which only `mara verify` (reading piped outputs) needs.
        get stdin() {
            return process.stdin;
        },
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
export async function main(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
    const io = withRedactedOutput(given);
    let code: number = EXIT.ok;
    const ctx: CommandContext = { io, setExit: (c) => (code = c) };
    // Commander's settings are copied to subcommands created after them, so set them first.
    const program = new Command("mara")
        .description("Deploy NGINX's Modern Application Reference Architecture (MARA) with Pulumi: first-run setup, offline plan, deploy.")
        .version(version(), "-V, --version")
        .exitOverride()
        .showHelpAfterError("(run mara --help for usage)")
        .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
    const one = requested(argv);
    for (const command of one ? [one] : COMMANDS) command.load().register(program, ctx);
    const unknown = unknownCommandMessage(program, argv);
    if (unknown) {
        line(io.stderr, unknown);
        return EXIT.usage;
    }
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
