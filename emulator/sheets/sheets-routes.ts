import { Hono, type Context } from 'hono'
import { apiGuard, type ApiSpec } from '../http/api-guard'
import { baseUrl } from '../http/base-url'
import type { EmulatorEnv } from '../http/context'
import { badRequest, GoogleApiError, notFound, permissionDenied } from '../http/google-error'
import { queryList, readJsonBody, sendJson } from '../http/respond'
import { SCOPE_REQUIREMENTS } from '../oauth/scopes'
import type { EmulatorState } from '../state'
import type { ValueInputOption, ValueRenderOption } from './cell-values'
import {
  appendValues,
  batchUpdate,
  clearValues,
  getValues,
  resolveRange,
  spreadsheetResource,
  updateValues,
  type CreateRequest,
  type Spreadsheet,
} from './spreadsheet-store'

const SERVICE = 'sheets.googleapis.com'

type Operation = {
  name: string
  rpc: string
  access: 'read' | 'write'
}

const OPERATIONS = {
  create: { name: 'sheets.spreadsheets.create', rpc: 'CreateSpreadsheet', access: 'write' },
  get: { name: 'sheets.spreadsheets.get', rpc: 'GetSpreadsheet', access: 'read' },
  batchUpdate: { name: 'sheets.spreadsheets.batchUpdate', rpc: 'BatchUpdateSpreadsheet', access: 'write' },
  valuesGet: { name: 'sheets.spreadsheets.values.get', rpc: 'GetValues', access: 'read' },
  valuesUpdate: { name: 'sheets.spreadsheets.values.update', rpc: 'UpdateValues', access: 'write' },
  valuesAppend: { name: 'sheets.spreadsheets.values.append', rpc: 'AppendValues', access: 'write' },
  valuesClear: { name: 'sheets.spreadsheets.values.clear', rpc: 'ClearValues', access: 'write' },
  valuesBatchGet: { name: 'sheets.spreadsheets.values.batchGet', rpc: 'BatchGetValues', access: 'read' },
  valuesBatchUpdate: { name: 'sheets.spreadsheets.values.batchUpdate', rpc: 'BatchUpdateValues', access: 'write' },
  valuesBatchClear: { name: 'sheets.spreadsheets.values.batchClear', rpc: 'BatchClearValues', access: 'write' },
} satisfies Record<string, Operation>

type OperationKey = keyof typeof OPERATIONS

function specFor(operation: Operation): ApiSpec {
  return {
    id: operation.name,
    service: SERVICE,
    rpc: `google.apps.sheets.v4.SpreadsheetsService.${operation.rpc}`,
    scopes: operation.access === 'read' ? SCOPE_REQUIREMENTS.sheetsRead : SCOPE_REQUIREMENTS.sheetsWrite,
    quota: { kind: 'sheets', type: operation.access },
  }
}

type Route = { key: OperationKey; spreadsheetId?: string; range?: string }

/** The discovery id of a Sheets request, e.g. for the request log of a request a fault answered. */
export function sheetsApiName(method: string, pathname: string): string | undefined {
  try {
    const matched = matchSheetsRoute(method, pathname)
    return matched ? OPERATIONS[matched.key].name : undefined
  } catch {
    return undefined
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw badRequest(`Unable to parse range: ${segment}`)
  }
}

/** Sheets paths carry custom verbs (`:append`) after a percent-encoded A1 range, so they are matched by hand. */
export function matchSheetsRoute(method: string, pathname: string): Route | undefined {
  const rest = pathname.replace(/^\/v4\/spreadsheets/, '')
  if (rest === '' || rest === '/') return method === 'POST' ? { key: 'create' } : undefined
  let match = /^\/([^/:]+)(?::([A-Za-z]+))?$/.exec(rest)
  if (match) {
    const spreadsheetId = decodeSegment(match[1]!)
    if (!match[2] && method === 'GET') return { key: 'get', spreadsheetId }
    if (match[2] === 'batchUpdate' && method === 'POST') return { key: 'batchUpdate', spreadsheetId }
    return undefined
  }
  match = /^\/([^/:]+)\/values:([A-Za-z]+)$/.exec(rest)
  if (match) {
    const spreadsheetId = decodeSegment(match[1]!)
    if (match[2] === 'batchGet' && method === 'GET') return { key: 'valuesBatchGet', spreadsheetId }
    if (match[2] === 'batchUpdate' && method === 'POST') return { key: 'valuesBatchUpdate', spreadsheetId }
    if (match[2] === 'batchClear' && method === 'POST') return { key: 'valuesBatchClear', spreadsheetId }
    return undefined
  }
  match = /^\/([^/:]+)\/values\/(.+)$/.exec(rest)
  if (match) {
    const spreadsheetId = decodeSegment(match[1]!)
    const verb = /:(append|clear)$/.exec(match[2]!)
    const range = decodeSegment(verb ? match[2]!.slice(0, -verb[0].length) : match[2]!)
    if (verb?.[1] === 'append' && method === 'POST') return { key: 'valuesAppend', spreadsheetId, range }
    if (verb?.[1] === 'clear' && method === 'POST') return { key: 'valuesClear', spreadsheetId, range }
    if (!verb && method === 'GET') return { key: 'valuesGet', spreadsheetId, range }
    if (!verb && method === 'PUT') return { key: 'valuesUpdate', spreadsheetId, range }
  }
  return undefined
}

function enumParam<T extends string>(c: Context, name: string, protoName: string, type: string, allowed: readonly T[], fallback?: T): T {
  const value = c.req.query(name)
  if (value === undefined || value === '') {
    if (fallback !== undefined) return fallback
    throw badRequest(`'${name}' is required but not specified`)
  }
  if (!allowed.includes(value as T)) {
    throw badRequest(`Invalid value at '${protoName}' (type.googleapis.com/google.apps.sheets.v4.${type}), "${value}"`)
  }
  return value as T
}

const valueInputOption = (c: Context) =>
  enumParam<ValueInputOption>(c, 'valueInputOption', 'value_input_option', 'ValueInputOption', ['RAW', 'USER_ENTERED'])

const renderOption = (c: Context, name: string, protoName: string) =>
  enumParam<ValueRenderOption>(c, name, protoName, 'ValueRenderOption', ['FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA'], 'FORMATTED_VALUE')

const majorDimension = (value: unknown): 'ROWS' | 'COLUMNS' => {
  if (value === undefined || value === null || value === 'ROWS' || value === 'DIMENSION_UNSPECIFIED') return 'ROWS'
  if (value === 'COLUMNS') return 'COLUMNS'
  throw badRequest(`Invalid value at 'data.major_dimension' (type.googleapis.com/google.apps.sheets.v4.Dimension), "${String(value)}"`)
}

function sameRange(spreadsheet: Spreadsheet, a: string, b: string): boolean {
  const left = resolveRange(spreadsheet, a)
  const right = resolveRange(spreadsheet, b)
  return left.sheet === right.sheet && JSON.stringify({ ...left.range, sheetTitle: null }) === JSON.stringify({ ...right.range, sheetTitle: null })
}

export function sheetsRoutes(state: EmulatorState) {
  const app = new Hono<EmulatorEnv>()

  const spreadsheetFor = (c: Context<EmulatorEnv>, id: string, access: 'read' | 'write'): Spreadsheet => {
    const spreadsheet = state.sheets.find(id)
    if (!spreadsheet) throw notFound()
    const email = c.get('principal').email
    const allowed = access === 'read' ? state.sheets.canRead(spreadsheet, email) : state.sheets.canWrite(spreadsheet, email)
    if (!allowed) throw permissionDenied()
    return spreadsheet
  }

  const viewerUrl = (c: Context, id: string) => `${baseUrl(c, state)}/sheets/${id}`

  const dispatch = async (c: Context<EmulatorEnv>) => {
    const pathname = new URL(c.req.url).pathname
    const matched = matchSheetsRoute(c.req.method, pathname)
    if (!matched) {
      throw new GoogleApiError({
        code: 501,
        status: 'UNIMPLEMENTED',
        reason: 'notImplemented',
        message: `The Mailrow Google emulator does not implement ${c.req.method} ${pathname}.`,
      })
    }
    const operation = OPERATIONS[matched.key]
    let response: Response | undefined
    await apiGuard(state, specFor(operation))(c, async () => {
      response = await handle(c, matched)
    })
    return response!
  }
  app.all('/v4/spreadsheets', dispatch)
  app.all('/v4/spreadsheets/*', dispatch)

  async function handle(c: Context<EmulatorEnv>, matched: Route): Promise<Response> {
    const access = OPERATIONS[matched.key].access
    const id = matched.spreadsheetId ?? ''
    switch (matched.key) {
      case 'create': {
        const body = (await readJsonBody(c)) as CreateRequest
        const spreadsheet = state.sheets.create(c.get('principal').email, body)
        return sendJson(c, spreadsheetResource(spreadsheet, viewerUrl(c, spreadsheet.id)))
      }
      case 'get': {
        const spreadsheet = spreadsheetFor(c, id, access)
        const includeGridData = c.req.query('includeGridData') === 'true'
        return sendJson(c, spreadsheetResource(spreadsheet, viewerUrl(c, id), { includeGridData, ranges: queryList(c, 'ranges') }))
      }
      case 'batchUpdate': {
        const spreadsheet = spreadsheetFor(c, id, access)
        const body = await readJsonBody(c)
        const replies = batchUpdate(spreadsheet, body.requests)
        const result: Record<string, unknown> = { spreadsheetId: id, replies }
        if (body.includeSpreadsheetInResponse === true) {
          result.updatedSpreadsheet = spreadsheetResource(spreadsheet, viewerUrl(c, id), {
            includeGridData: body.responseIncludeGridData === true,
          })
        }
        return sendJson(c, result)
      }
      case 'valuesGet': {
        const spreadsheet = spreadsheetFor(c, id, access)
        return sendJson(
          c,
          getValues(spreadsheet, matched.range!, {
            valueRenderOption: renderOption(c, 'valueRenderOption', 'value_render_option'),
            majorDimension: majorDimension(c.req.query('majorDimension')),
          }),
        )
      }
      case 'valuesBatchGet': {
        const spreadsheet = spreadsheetFor(c, id, access)
        const valueRenderOption = renderOption(c, 'valueRenderOption', 'value_render_option')
        const dimension = majorDimension(c.req.query('majorDimension'))
        const ranges = c.req.queries('ranges') ?? []
        const body: Record<string, unknown> = { spreadsheetId: id }
        if (ranges.length) body.valueRanges = ranges.map((range) => getValues(spreadsheet, range, { valueRenderOption, majorDimension: dimension }))
        return sendJson(c, body)
      }
      case 'valuesUpdate':
      case 'valuesAppend': {
        const spreadsheet = spreadsheetFor(c, id, access)
        const option = valueInputOption(c)
        const body = await readJsonBody(c)
        if (typeof body.range === 'string' && !sameRange(spreadsheet, body.range, matched.range!)) {
          throw badRequest(`Requested range [${body.range}] and URL range [${matched.range}] must be the same`)
        }
        const writeOptions = {
          valueInputOption: option,
          includeValuesInResponse: c.req.query('includeValuesInResponse') === 'true',
          responseValueRenderOption: renderOption(c, 'responseValueRenderOption', 'response_value_render_option'),
        }
        const values = { values: body.values, majorDimension: majorDimension(body.majorDimension) }
        if (matched.key === 'valuesUpdate') return sendJson(c, updateValues(spreadsheet, matched.range!, values, writeOptions))
        const insertDataOption = enumParam(c, 'insertDataOption', 'insert_data_option', 'InsertDataOption', ['INSERT_ROWS', 'OVERWRITE'] as const, 'OVERWRITE')
        return sendJson(c, appendValues(spreadsheet, matched.range!, values, { ...writeOptions, insertDataOption }))
      }
      case 'valuesClear': {
        const spreadsheet = spreadsheetFor(c, id, access)
        return sendJson(c, clearValues(spreadsheet, matched.range!))
      }
      case 'valuesBatchClear': {
        const spreadsheet = spreadsheetFor(c, id, access)
        const body = await readJsonBody(c)
        const ranges = Array.isArray(body.ranges) ? body.ranges.map(String) : []
        const cleared = ranges.map((range) => clearValues(spreadsheet, range).clearedRange)
        return sendJson(c, cleared.length ? { spreadsheetId: id, clearedRanges: cleared } : { spreadsheetId: id })
      }
      case 'valuesBatchUpdate': {
        const spreadsheet = spreadsheetFor(c, id, access)
        const body = await readJsonBody(c)
        const option = body.valueInputOption
        if (option !== 'RAW' && option !== 'USER_ENTERED') {
          if (option === undefined) throw badRequest("'valueInputOption' is required but not specified")
          throw badRequest(`Invalid value at 'value_input_option' (type.googleapis.com/google.apps.sheets.v4.ValueInputOption), "${String(option)}"`)
        }
        const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []
        const responses = data.map((entry) =>
          updateValues(
            spreadsheet,
            String(entry.range ?? ''),
            { values: entry.values, majorDimension: majorDimension(entry.majorDimension) },
            { valueInputOption: option, includeValuesInResponse: body.includeValuesInResponse === true },
          ),
        )
        const total = (key: string) => responses.reduce((sum, response) => sum + (Number(response[key]) || 0), 0)
        const result: Record<string, unknown> = { spreadsheetId: id }
        if (responses.length) {
          Object.assign(result, {
            totalUpdatedRows: total('updatedRows'),
            totalUpdatedColumns: total('updatedColumns'),
            totalUpdatedCells: total('updatedCells'),
            totalUpdatedSheets: new Set(data.map((entry) => resolveRange(spreadsheet, String(entry.range)).sheet)).size,
            responses,
          })
        }
        return sendJson(c, result)
      }
    }
  }

  return app
}
