/** The simulator's image and video endpoints, loaded together by `loadMediaEndpoints` on the first media request. */
export { handleGeminiImage } from './images/gemini-image-endpoint.js';
export { handleImagenPredict } from './images/imagen-predict-endpoint.js';
export { handleImageEdit, handleImageGeneration } from './images/openai-images-endpoint.js';
export { handleFalQueue } from './fal/fal-queue-endpoint.js';
export { handleOpenAiVideos } from './videos/openai-videos-endpoint.js';
export { handleVeo } from './videos/veo-endpoint.js';
export { handleVertexVeo } from './videos/vertex-veo-endpoint.js';
export { handleMiniMaxVideo } from './minimax/minimax-video-endpoint.js';
