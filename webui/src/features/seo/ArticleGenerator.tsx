import { useId, useRef, useState, type FormEvent } from 'react'
import { MSG_AI_NOT_CONFIGURED, TOPIC_MAX, elapsedText, type AiStatus, type Idea } from './articles'
import type { ApiData } from '../../lib/use-api-data'
import { formValues } from '../../lib/forms'
import { LightbulbIcon } from '../../components/icons/LightbulbIcon'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { Notice } from '../../components/ui/Notice'
import { Spinner } from '../../components/ui/Spinner'
import { progressOf, useGeneration, type GenerationState } from './use-generation'

export interface ArticleGeneratorProps {
  /** `GET /api/admin/ai`: whether the server has an AI key. */
  ai: ApiData<AiStatus>
  /** A generated article was saved as a draft (the list should show it). */
  onSaved: (articleId: number) => void
  /** Opens the editor on a draft. */
  onEdit: (articleId: number) => void
}

/**
 * 'Generate Ideas' from a topic, the three ideas, and the article written from the one
 * clicked (saved as a draft); 'Start Over'; the red 'Error' box. Without an AI key it says
 * 'AI is not configured' instead (hand-writing still works).
 */
export function ArticleGenerator({ ai, onSaved, onEdit }: ArticleGeneratorProps) {
  const titleId = useId()
  return (
    <section className="card card--pad-md dash-card seo-generator" aria-labelledby={titleId}>
      <h2 id={titleId} className="seo-generator__title">
        <LightbulbIcon size={20} />
        Generate with AI
      </h2>
      {ai.error !== null ? (
        <div className="seo-generator__body">
          <ErrorBox title="Error">{ai.error}</ErrorBox>
          <div>
            <Button size="sm" variant="outline" onClick={ai.reload}>
              Try again
            </Button>
          </div>
        </div>
      ) : ai.data === null ? (
        <Spinner label="Checking the AI" />
      ) : ai.data.configured ? (
        <Generator model={ai.data.model} onSaved={onSaved} onEdit={onEdit} />
      ) : (
        <AiNotConfigured />
      )}
    </section>
  )
}

export function AiNotConfigured() {
  return (
    <div className="seo-ai-off">
      <p className="seo-ai-off__title">{MSG_AI_NOT_CONFIGURED}</p>
      <p className="seo-ai-off__text">
        The operator sets <code>AGENCY_AI_API_KEY</code> in the server’s configuration to generate ideas and
        articles. You can still write an article by hand with New Article.
      </p>
    </div>
  )
}

function Generator({ model, onSaved, onEdit }: { model: string | null; onSaved: (id: number) => void; onEdit: (id: number) => void }) {
  const { state, generateIdeas, writeArticle, startOver } = useGeneration(onSaved)
  // Whether the topic box holds anything, and anything but spaces (the box holds the topic).
  const [typed, setTyped] = useState({ filled: false, blank: true })
  const formRef = useRef<HTMLFormElement>(null)
  const errorId = useId()
  const running = state.phase === 'ideas' || state.phase === 'writing'

  const readTopic = (form: HTMLFormElement) => formValues(form, ['topic']).topic
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const topic = readTopic(event.currentTarget)
    setTyped({ filled: topic !== '', blank: topic.trim() === '' })
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void generateIdeas(readTopic(event.currentTarget))
  }
  const reset = () => {
    formRef.current?.reset()
    setTyped({ filled: false, blank: true })
    startOver()
  }
  const showStartOver = state.phase !== 'idle' || state.error !== null || typed.filled

  return (
    <div className="seo-generator__body">
      <form ref={formRef} className="seo-topic" onSubmit={submit} onInput={onInput} noValidate>
        <Field
          label="Topic"
          className="seo-topic__field"
          name="topic"
          defaultValue=""
          maxLength={TOPIC_MAX}
          placeholder="e.g. websites for dental clinics"
          hint={model ? `Three ideas from ${model}; click one to write the article as a draft.` : undefined}
          invalid={state.error !== null && state.phase === 'idle' && typed.blank}
          describedBy={state.error ? errorId : undefined}
          disabled={running}
        />
        <div className="seo-topic__actions">
          <Button type="submit" busy={state.phase === 'ideas'} disabled={running}>
            Generate Ideas
          </Button>
          {showStartOver && (
            <Button variant="outline" onClick={reset}>
              Start Over
            </Button>
          )}
        </div>
      </form>

      {state.error && (
        <ErrorBox key={state.attempt} id={errorId} title="Error">
          {state.error}
        </ErrorBox>
      )}

      {/* Always present, so screen readers announce the ideas arriving. */}
      <p className="visually-hidden" role="status">
        {state.phase === 'choosing' && state.ideas.length > 0
          ? state.ideas.length === 1
            ? `1 idea for “${state.topic}” is ready: choose it to write it.`
            : `${state.ideas.length} ideas for “${state.topic}” are ready: choose one to write it.`
          : ''}
      </p>

      {running && <GenerationProgress state={state} />}

      {state.phase === 'saved' && state.articleId !== null && (
        <Notice className="seo-saved">
          <span>“{state.chosen?.title}” was saved as a draft.</span>
          <Button size="sm" variant="outline" onClick={() => onEdit(state.articleId as number)}>
            Edit the draft
          </Button>
        </Notice>
      )}

      {state.ideas.length > 0 && (
        <IdeaList
          topic={state.topic}
          ideas={state.ideas}
          writing={state.phase === 'writing' ? state.chosen : null}
          disabled={running}
          onChoose={(idea) => void writeArticle(idea)}
        />
      )}
    </div>
  )
}

export function GenerationProgress({ state }: { state: GenerationState }) {
  const value = progressOf(state)
  const label =
    state.phase === 'ideas'
      ? `Generating ideas for “${state.topic}”…`
      : `Writing “${state.chosen?.title ?? ''}” and saving it as a draft…`
  return (
    <div className="seo-progress">
      <div className="seo-progress__head">
        <span role="status">{label}</span>
        <span className="seo-progress__time" aria-hidden="true">
          {elapsedText(state.elapsed)}
        </span>
      </div>
      <progress
        className="seo-progress__bar"
        max={100}
        value={value}
        aria-label={state.phase === 'ideas' ? 'Generating ideas' : 'Writing the article'}
        aria-valuetext={`${Math.floor(value)}%`}
      />
      <p className="seo-progress__hint">The AI takes a few seconds to a minute. You can keep working with the articles below.</p>
    </div>
  )
}

interface IdeaListProps {
  topic: string
  ideas: Idea[]
  /** The idea being written now. */
  writing: Idea | null
  disabled: boolean
  onChoose: (idea: Idea) => void
}

export function IdeaList({ topic, ideas, writing, disabled, onChoose }: IdeaListProps) {
  const headingId = useId()
  return (
    <section className="seo-ideas" aria-labelledby={headingId}>
      <h3 id={headingId} className="seo-ideas__title">
        Ideas for “{topic}”
      </h3>
      <ul className="seo-ideas__list">
        {ideas.map((idea, index) => (
          <li key={index} className="seo-idea">
            <h4 className="seo-idea__title">{idea.title}</h4>
            <p className="seo-idea__text">{idea.description}</p>
            {idea.keywords.length > 0 && (
              <ul className="seo-idea__keywords" aria-label="Keywords">
                {idea.keywords.map((keyword, k) => (
                  <li key={k} className="badge badge--blue">
                    {keyword}
                  </li>
                ))}
              </ul>
            )}
            {idea.outline.length > 0 && (
              <ol className="seo-idea__outline" aria-label="Outline">
                {idea.outline.map((point, k) => (
                  <li key={k}>{point}</li>
                ))}
              </ol>
            )}
            <Button
              size="sm"
              className="seo-idea__choose"
              busy={writing === idea}
              disabled={disabled}
              aria-label={writing === idea ? `Writing: ${idea.title}` : `Write this article: ${idea.title}`}
              onClick={() => onChoose(idea)}
            >
              {writing === idea ? 'Writing…' : 'Write this article'}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  )
}
