"""The reference side of nwpcube's FlatBuffers tests, on the PyPI packages `flatbuffers`
and `openmeteo-sdk` (run in a virtual environment that has them; Scripts/test makes one).

  build    reads, on standard input, a JSON list of messages, each a list of builder calls,
           makes each message with `flatbuffers.Builder` and prints the bytes of all of
           them, one after the other, in hexadecimal. The Swift test makes the same calls on
           nwpcube's encoder and compares the bytes.
  decode   reads a stream of size-prefixed WeatherApiResponse messages on standard input and
           prints, as JSON, everything Open-Meteo's SDK decodes from each: enums by their
           names in the SDK, so that nwpcube's numbers are checked against the SDK's.

Calls of `build` (refs count the offsets made so far in the message, from 0):
  ["string", text] ["floats", [uint32 bits]] ["int64s", [ints]] ["offsets", [refs]]
  ["start", field count] ["scalar", "u8"|"i16"|"i32"|"i64"|"f32", slot, value (f32 as
  uint32 bits)] ["offset", slot, ref] ["end"] ["finish", ref]
"""

import json
import math
import struct
import sys

import flatbuffers


def float32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def build(messages):
    out = bytearray()
    for calls in messages:
        builder = flatbuffers.Builder(64)
        refs = []
        for call in calls:
            kind = call[0]
            if kind == "string":
                refs.append(builder.CreateString(call[1]))
            elif kind == "floats":
                builder.StartVector(4, len(call[1]), 4)
                for bits in reversed(call[1]):
                    builder.PrependFloat32(float32(bits))
                refs.append(builder.EndVector())
            elif kind == "int64s":
                builder.StartVector(8, len(call[1]), 8)
                for value in reversed(call[1]):
                    builder.PrependInt64(value)
                refs.append(builder.EndVector())
            elif kind == "offsets":
                builder.StartVector(4, len(call[1]), 4)
                for ref in reversed(call[1]):
                    builder.PrependUOffsetTRelative(refs[ref])
                refs.append(builder.EndVector())
            elif kind == "start":
                builder.StartObject(call[1])
            elif kind == "scalar":
                _, type_, slot, value = call
                if type_ == "u8":
                    builder.PrependUint8Slot(slot, value, 0)
                elif type_ == "i16":
                    builder.PrependInt16Slot(slot, value, 0)
                elif type_ == "i32":
                    builder.PrependInt32Slot(slot, value, 0)
                elif type_ == "i64":
                    builder.PrependInt64Slot(slot, value, 0)
                elif type_ == "f32":
                    builder.PrependFloat32Slot(slot, float32(value), 0.0)
                else:
                    raise ValueError(f"unknown scalar type {type_}")
            elif kind == "offset":
                builder.PrependUOffsetTRelativeSlot(call[1], refs[call[2]], 0)
            elif kind == "end":
                refs.append(builder.EndObject())
            elif kind == "finish":
                builder.FinishSizePrefixed(refs[call[1]])
                out += builder.Output()
            else:
                raise ValueError(f"unknown call {kind}")
    print(out.hex())


def enum_names(module, name):
    cls = getattr(__import__(f"openmeteo_sdk.{name}", fromlist=[name]), name)
    return {value: key for key, value in vars(cls).items() if not key.startswith("_")}


def number(value):
    """A float for JSON: NaN as null."""
    return None if math.isnan(value) else value


def decode(data):
    from openmeteo_sdk.WeatherApiResponse import WeatherApiResponse

    variables = enum_names("openmeteo_sdk", "Variable")
    units = enum_names("openmeteo_sdk", "Unit")
    aggregations = enum_names("openmeteo_sdk", "Aggregation")
    models = enum_names("openmeteo_sdk", "Model")

    def block(section):
        if section is None:
            return None
        items = []
        for index in range(section.VariablesLength()):
            variable = section.Variables(index)
            items.append({
                "variable": variables.get(variable.Variable()),
                "unit": units.get(variable.Unit()),
                "altitude": variable.Altitude(),
                "aggregation": aggregations.get(variable.Aggregation()),
                "value": number(variable.Value()),
                "values": None if variable.ValuesIsNone()
                else [number(variable.Values(i)) for i in range(variable.ValuesLength())],
                "values_int64": None if variable.ValuesInt64IsNone()
                else [variable.ValuesInt64(i) for i in range(variable.ValuesInt64Length())],
            })
        return {"time": section.Time(), "time_end": section.TimeEnd(), "interval": section.Interval(),
                "variables": items}

    messages = []
    position = 0
    while position < len(data):
        length = int.from_bytes(data[position:position + 4], "little")
        response = WeatherApiResponse.GetRootAs(data, position + 4)
        messages.append({
            "length": length,
            "latitude": response.Latitude(),
            "longitude": response.Longitude(),
            "elevation": number(response.Elevation()),
            "generation_time_milliseconds": response.GenerationTimeMilliseconds(),
            "location_id": response.LocationId(),
            "model": models.get(response.Model()),
            "utc_offset_seconds": response.UtcOffsetSeconds(),
            "timezone": response.Timezone().decode() if response.Timezone() else None,
            "timezone_abbreviation":
                response.TimezoneAbbreviation().decode() if response.TimezoneAbbreviation() else None,
            "current": block(response.Current()),
            "hourly": block(response.Hourly()),
            "minutely_15": block(response.Minutely15()),
            "daily": block(response.Daily()),
        })
        position += 4 + length
    print(json.dumps(messages))


if __name__ == "__main__":
    if sys.argv[1:] == ["build"]:
        build(json.load(sys.stdin))
    elif sys.argv[1:] == ["decode"]:
        decode(sys.stdin.buffer.read())
    else:
        sys.exit("usage: flatbuffers-reference.py build|decode")
