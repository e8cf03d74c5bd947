// decisions.md §9 names this path for signLink; the one implementation is the SDK's.
export * from '../../sdk/src/sign-link.ts';
