/**
 * AWS calls as one function, so layers can sit between the drain and moto: the drain's client sends
 * each SDK command through {@link asSdk}, the layers (gaps.ts, faults.ts, the recording in world.ts) see
 * it by API, name and input, and {@link motoSend} finally sends it with the real SDK client to moto, whose
 * answers and errors come back through the SDK's own parsing.
 */
import type { AwsSdk } from "../../components/drain/awsSdk";

/** The three AWS APIs the drain calls. */
export type AwsApi = "ec2" | "elb" | "elbv2";

/** One AWS call: API, command name without `Command`, input; resolves to the SDK's output. */
export type Send = (api: AwsApi, command: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Sends through the real SDK clients of `sdk` (pointed at moto). */
export function motoSend(sdk: AwsSdk): Send {
    return async (api, command, input) => {
        const Command = sdk[api].commands[`${command}Command`];
        if (!Command) throw new Error(`the AWS SDK has no ${command}Command`);
        return (await sdk[api].client.send(new Command(input))) as Record<string, unknown>;
    };
}

/** An {@link AwsSdk} whose every command goes through `send`, as the drain's client takes it. */
export function asSdk(send: Send): AwsSdk {
    const commands = () =>
        new Proxy({} as AwsSdk["ec2"]["commands"], {
            get: (_t, name: string) =>
                class {
                    static readonly commandName = name.replace(/Command$/, "");
                    constructor(readonly input: Record<string, unknown>) {}
                },
        });
    const client = (api: AwsApi) => ({
        send: (cmd: unknown) => {
            const c = cmd as { input: Record<string, unknown>; constructor: { commandName: string } };
            return send(api, c.constructor.commandName, c.input);
        },
    });
    return { ec2: { commands: commands(), client: client("ec2") }, elb: { commands: commands(), client: client("elb") }, elbv2: { commands: commands(), client: client("elbv2") } };
}
