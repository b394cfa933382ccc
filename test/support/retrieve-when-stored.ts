import type OpenAI from 'openai';

/** A stored response, once it is there: storing happens just after delivery, so tests give it a moment. */
export async function retrieveWhenStored(client: OpenAI, id: string): Promise<OpenAI.Responses.Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.responses.retrieve(id);
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
