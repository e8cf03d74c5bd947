// signLink has been public at this path since the first release; the one implementation is the SDK's.
// A relative path, so that it resolves under any loader, without the workspace's source condition.
export * from '../../sdk/src/sign-link.ts';
