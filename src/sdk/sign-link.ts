// signLink has been public at this path since the first release; the one implementation is the SDK's.
export * from 'parley-sdk/sign-link';
