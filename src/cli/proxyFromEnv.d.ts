// proxy-from-env 2 ships no types: its one function, as its README states it.
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from HTTP(S)_PROXY / ALL_PROXY, or '' when NO_PROXY matches or none is set. */
  export function getProxyForUrl(url: string | URL): string;
}
