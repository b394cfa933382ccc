/** Endpoint families a key can be scoped to (docs/api.md, "Authentication"). */
export const endpointFamilies = ['chat', 'responses', 'messages', 'images', 'videos', 'models'] as const;

export type EndpointFamily = (typeof endpointFamilies)[number];

export function isEndpointFamily(value: string): value is EndpointFamily {
  return (endpointFamilies as readonly string[]).includes(value);
}
