// The one spelling of a container image's name that all its addresses meet at: `check` matches images by it, and
// the catalog finds two records claiming one image by it.

/**
 * One spelling per image: Docker Hub's implicit registry and `library/` namespace are dropped
 * (`docker.io/library/nginx` is `nginx`), and a registry host is case-insensitive.
 */
export function imageKey(name: string): string {
  const parts = name.split('/')
  const first = parts[0]!
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')
  let host = hasRegistry ? first.toLowerCase() : null
  let path = hasRegistry ? parts.slice(1) : parts
  // mirror.gcr.io is Google's pull-through mirror of Docker Hub: mirror.gcr.io/envoyproxy/envoy is envoyproxy/envoy.
  if (host === 'docker.io' || host === 'index.docker.io' || host === 'registry-1.docker.io' || host === 'mirror.gcr.io')
    host = null
  // Amazon's mirror of Docker Hub's official images: public.ecr.aws/docker/library/x is Docker Hub's x.
  if (host === 'public.ecr.aws' && path[0] === 'docker' && path[1] === 'library' && path.length === 3) {
    host = null
    path = path.slice(2)
  }
  if (host === null && path.length === 2 && path[0] === 'library') path = path.slice(1)
  // LinuxServer.io publishes each image at lscr.io and on Docker Hub: one image, two addresses.
  if (host === 'lscr.io' && path[0] === 'linuxserver') host = null
  return [...(host ? [host] : []), ...path].join('/')
}
