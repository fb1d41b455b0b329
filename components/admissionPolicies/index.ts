/**
 * The admission policies add-on unit: its component (component.ts), its keys (keys.ts), the rules across them and the
 * cluster versions that serve the policies (settings.ts) and its mapping onto the Platform's arguments (args.ts); its
 * page is docs/components/admissionPolicies.md. It has no chart and no defaults of its own (the default scope is
 * DEFAULTS.platform's), so no defaults.ts; the rules it applies stay in policy/, which the policy pack shares. This
 * index is the library's view of the unit, the component and its place on the Platform (platformUnit.ts): components never read configuration.
 */
export * from "./component";
// Its place on the Platform: the argument types, and (loaded with them) its group of PlatformArgs and member of Platform.
export type { PlatformAdmissionPoliciesArgs, PlatformGuardrailsArgs } from "./platformUnit";
