package request

// A transcription of what metainternalversionscheme.ParameterCodec.DecodeParameters does with a
// list request's query (k8s.io/apimachinery: runtime.parameterCodec.DecodeParameters, the
// generated autoConvert_url_Values_To_v1_ListOptions with runtime's Convert_Slice_string_To_*
// functions, then autoConvert_v1_ListOptions_To_internalversion_ListOptions, which parses the
// selectors), for the smp/request-info oracle, which cannot build the scheme with Go 1.19.

import (
	"net/url"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
)

type listOptions struct {
	Watch         bool
	FieldSelector fields.Selector
}

func sliceToBool(v []string) bool {
	if len(v) == 0 {
		return false
	}
	return !(v[0] == "0" || strings.EqualFold(v[0], "false"))
}

func decodeListOptions(q url.Values) (listOptions, error) {
	opts := listOptions{}
	if len(q) == 0 {
		return opts, nil
	}
	first := func(k string) (string, bool) {
		if v, ok := q[k]; ok && len(v) > 0 {
			return v[0], true
		}
		return "", false
	}
	labelSelector, _ := first("labelSelector")
	fieldSelector, _ := first("fieldSelector")
	if v, ok := q["watch"]; ok && len(v) > 0 {
		opts.Watch = sliceToBool(v)
	}
	if v, ok := first("timeoutSeconds"); ok {
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return opts, err
		}
	}
	if v, ok := first("limit"); ok {
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return opts, err
		}
	}
	if _, err := labels.Parse(labelSelector); err != nil {
		return opts, err
	}
	fs, err := fields.ParseSelector(fieldSelector)
	if err != nil {
		return opts, err
	}
	opts.FieldSelector = fs
	return opts, nil
}
