/**
 * The log agent add-on unit: its component (component.ts), its defaults and chart pin (defaults.ts), its
 * configuration keys (keys.ts), its settings (settings.ts) and its mapping onto the Platform's arguments (args.ts);
 * its page is docs/components/logAgent.md. Fluent Bit's configuration syntax (../fluentBitConfig.ts) and the log
 * formats (../logFormats.ts) stay beside it in components/, shared with the ingress controller. This index is the
 * library's view of the unit, the component and its place on the Platform (platformUnit.ts): components never read configuration, so the keys, settings and
 * mapping are imported by config/ and program/ from their own files.
 */
export * from "./component";
// Its place on the Platform: the argument types, and (loaded with them) its group of PlatformArgs and member of Platform.
export type { PlatformLogAgentArgs, PlatformLogsArgs } from "./platformUnit";
